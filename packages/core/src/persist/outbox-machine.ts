import { fullJitter } from '../backoff.js'
import { isRetryable } from './outbox-classify.js'
import { drop, gone, merge } from './outbox-merge.js'
import type {
  Emit,
  EventType,
  Held,
  Kind,
  OutboxEffect,
  OutboxEvent,
  OutboxPhase,
  OutboxState,
  Outcome,
  Result,
} from './outbox-machine-types.js'
import type { OutboxEntry, OutboxEvents, OutboxSnapshot } from './types.js'

// The durable outbox as a pure machine: `transition(state, event)` looks the pair up in one table
// (TABLE below) and returns the next state and the effects to carry out, as data. No clock, no
// randomness, no I/O: durable-outbox.ts stores, sends and waits, and feeds the outcomes in.

export type * from './outbox-machine-types.js'

type Handler<E extends EventType> = (s: OutboxState, e: Extract<OutboxEvent, { type: E }>) => Result
type Edges = { readonly [E in EventType]?: Handler<E> }

export const initialState = (o: Pick<OutboxState, 'online' | 'retry' | 'startedAt'>): OutboxState => ({
  ...o,
  phase: 'loading',
  held: [],
  senders: [],
  drains: [],
  // The first read is on its way (`loaded`).
  reading: 'yes',
})

const same = (state: OutboxState): Result => ({ state, effects: [] })
const with_ = (s: OutboxState, patch: Partial<OutboxState>, effects: OutboxEffect[] = []): Result => ({
  state: { ...s, ...patch },
  effects,
})
/** One of OutboxEvents as an effect (its value checked against the event's). */
const emit = <K extends keyof OutboxEvents>(name: K, value: Parameters<OutboxEvents[K]>[0]) =>
  ({ type: 'emit', name, value }) as Emit
const settle = (id: string, outcome: Outcome, tell: boolean): OutboxEffect => ({ type: 'settle', id, outcome, tell })

/** Another read of the stored list: at once, or once the one on its way is back. */
function reread(s: OutboxState): Result {
  if (s.reading !== 'no') return with_(s, { reading: 'again' })
  return with_(s, { reading: 'yes' }, [{ type: 'reload' }])
}

/** The drainer sends the first write of each lane of its kinds that may go (a lane's writes go one after the other). */
function pump({ state, effects }: Result): Result {
  if (state.phase !== 'drainer' || !state.online) return { state, effects }
  const lanes = new Set<string>()
  const out = [...effects]
  let changed = false
  const held = state.held.map((h) => {
    if (h.phase === 'announced' || lanes.has(h.entry.lane)) return h
    lanes.add(h.entry.lane)
    if (h.phase !== 'stored' || !state.drains.includes(h.entry.kind)) return h
    changed = true
    const { entry } = h
    if (entry.attempts > 0 || entry.createdAt < state.startedAt) out.push(emit('replay', entry))
    out.push({ type: 'send', entry })
    return { entry, phase: 'sending' as const, own: h.own }
  })
  return { state: changed ? { ...state, held } : state, effects: out }
}

/** A tick at the earliest time a blocked write may go again. */
function waitFor(s: OutboxState): OutboxEffect[] {
  const until = s.held.reduce((min, h) => (h.phase === 'blocked' ? Math.min(min, h.until!) : min), Infinity)
  return until === Infinity ? [] : [{ type: 'wait', until }]
}

const sending = (s: OutboxState, id: string) => s.held.find((h) => h.entry.id === id && h.phase === 'sending')
const replace = (s: OutboxState, id: string, next: Held): OutboxState => ({
  ...s,
  held: s.held.map((h) => (h.entry.id === id ? next : h)),
})

/** A read done: the drainer sends what may go; one more read if a change came meanwhile. */
function readDone(s: OutboxState, { state, effects }: Result): Result {
  const again = s.reading === 'again'
  return pump({
    state: { ...state, reading: again ? 'yes' : 'no' },
    effects: again ? [...effects, { type: 'reload' }] : effects,
  })
}

const loaded: Handler<'loaded'> = (s, e) => {
  const { state, effects } = merge(s, e.read)
  const phase: OutboxPhase = s.drains.length ? 'drainer' : 'follower'
  const restore: OutboxEffect[] = e.read.entries.length
    ? [emit('restore', { entries: state.held.filter((h) => !gone(h)).map((h) => h.entry) })]
    : []
  return readDone(s, { state: { ...state, phase }, effects: [...restore, ...effects] })
}

const read: Handler<'read'> = (s, e) => readDone(s, merge(s, e.read))

/**
 * One change is stored: a new write may go now (and its caller hears `queued`); a drop's caller
 * hears the outcome; a write whose record was gone when its failure was stored was sent or removed
 * by another tab. The other tabs read the stored writes again.
 */
const stored: Handler<'stored'> = (s, { op, found }) => {
  const id = op.type === 'put' ? op.entry.id : op.id
  const h = s.held.find((x) => x.entry.id === id)
  const effects: OutboxEffect[] = []
  let held = s.held
  if (op.type === 'remove') {
    if (h && gone(h)) {
      held = held.filter((x) => x !== h)
      const { entry, outcome } = h
      if (outcome && (found || !h.found))
        effects.push(
          settle(id, outcome, true),
          outcome.error
            ? emit('refused', { entry, error: outcome.error })
            : emit('applied', { entry, result: outcome.result }),
        )
    }
  } else if (op.add) {
    if (h?.phase === 'announced')
      held = held.map((x) => (x === h ? { entry: x.entry, phase: 'stored', own: x.own } : x))
    // Once, here (a read may have found it stored first).
    if (h?.own && !gone(h)) effects.push(emit('queued', h.entry))
  } else if (!found && (h?.phase === 'stored' || h?.phase === 'blocked')) held = held.filter((x) => x !== h)
  effects.push({ type: 'post', message: { t: 'outbox' } })
  return pump({ state: held === s.held ? s : { ...s, held }, effects })
}

const sender: Handler<'sender'> = (s, e) =>
  s.senders.includes(e.kind)
    ? same(s)
    : with_(s, { senders: [...s.senders, e.kind] }, [{ type: 'elect', kind: e.kind }])

const elected: Handler<'elected'> = (s, e) => {
  const drains: Kind[] = s.drains.includes(e.kind) ? [...s.drains] : [...s.drains, e.kind]
  if (s.phase === 'loading') return same({ ...s, drains })
  // Storage is the truth now: the last drainer may have sent some since this tab last read.
  return pump(reread({ ...s, drains, phase: 'drainer' }))
}

const submit: Handler<'submit'> = (s, e) =>
  with_(s, { held: [...s.held, { entry: e.entry, phase: 'announced', own: true }] }, [
    { type: 'post', message: { t: 'outbox', added: e.entry } }, // the other tabs show it now; the store takes a while
    { type: 'put', entry: e.entry, add: true },
  ])

const announced: Handler<'announced'> = (s, e) =>
  s.held.some((h) => h.entry.id === e.entry.id)
    ? same(s)
    : with_(s, { held: [...s.held, { entry: e.entry, phase: 'announced' }] })

/** A send ended for good: the write's drop goes to storage; its caller hears `outcome` once that is read back. */
const done = (s: OutboxState, h: Held, phase: 'settled' | 'refused', outcome: Outcome): Result =>
  pump({ state: replace(s, h.entry.id, { ...h, phase, outcome }), effects: [drop(h.entry.id)] })

const sent: Handler<'sent'> = (s, e) => {
  const h = sending(s, e.id)
  return h ? done(s, h, 'settled', { result: e.result }) : same(s)
}

/** Failed for now: the lane waits out the one backoff (full jitter); else the service's refusal: dropped. */
const failed: Handler<'failed'> = (s, e) => {
  const h = sending(s, e.id)
  if (!h) return same(s)
  if (!isRetryable(e.error)) return done(s, h, 'refused', { error: e.error })
  const attempts = h.entry.attempts + 1
  // At least half the step (equal jitter): a write that keeps failing never retries at once.
  const delayMs = fullJitter(attempts - 1, s.retry.baseMs, s.retry.maxMs, () => e.random, 0.5)
  const { name, code, message } = e.error
  const lastError = { name, code, message }
  const entry: OutboxEntry = { ...h.entry, attempts, lastError }
  const state = replace(s, e.id, { ...h, entry, phase: 'blocked', until: e.now + delayMs })
  return pump({
    state,
    effects: [{ type: 'put', entry }, emit('retry', { entry, error: e.error, delayMs }), ...waitFor(state)],
  })
}

/**
 * Blocked writes whose time came (`now`), or all of them (online), may go: once the stored list
 * is read again (another tab may have sent or removed them meanwhile: storage is the truth).
 */
function unblock(s: OutboxState, now: number): Result {
  const due = (h: Held) => h.phase === 'blocked' && h.until! <= now
  if (!s.held.some(due)) return { state: s, effects: waitFor(s) }
  const r = reread({ ...s, held: s.held.map((h) => (due(h) ? { ...h, phase: 'stored' as const } : h)) })
  return { state: r.state, effects: [...r.effects, ...waitFor(r.state)] }
}

const outcome: Handler<'outcome'> = (s, e) => {
  // Announced by another tab and settled there: gone (it may never have been stored here).
  const held = s.held.filter((h) => !(h.entry.id === e.id && h.phase === 'announced' && !h.own))
  return with_(s, { held }, [settle(e.id, e.outcome, false)])
}

/** Not while it is being sent, nor while another tab is storing it (the drop could come first). */
const remove: Handler<'remove'> = (s, e) => {
  const h = s.held.find((x) => x.entry.id === e.id)
  const may = h && (h.phase === 'stored' || h.phase === 'blocked' || (h.phase === 'announced' && h.own))
  // An aborted caller lets go of a write already on its way (it is sent; its outcome is nobody's here).
  if (!may) return e.aborted ? { state: s, effects: [settle(e.id, { error: e.error }, false)] } : same(s)
  const state = replace(s, e.id, { entry: h.entry, phase: 'settled', own: h.own })
  return { state, effects: [settle(e.id, { error: e.error }, true), drop(e.id)] }
}

const logout: Handler<'logout'> = (s, e) =>
  with_(s, { phase: 'loggedOut', loggedOut: e.by, held: [] }, [
    { type: 'end', why: 'outbox_cleared' },
    emit('cleared', { by: e.by }),
  ])

const stop: Handler<'stop'> = (s) => with_(s, { phase: 'stopped' }, [{ type: 'end', why: 'outbox_stopped' }])

/** After a logout or a stop, what was on its way (a send, a store, a read) changes nothing and writes nothing. */
const over = same

/** Loading, follower and drainer: the tab is in the key's session. */
const LIVE: Edges = {
  changed: reread,
  sender,
  elected,
  announced,
  outcome,
  // Back online: what waited goes, after a read when some waited out a backoff.
  online: (s) => {
    const r = unblock({ ...s, online: true }, Infinity)
    return r.effects.length ? r : pump(r)
  },
  offline: (s) => same({ ...s, online: false }),
  logout,
  stop,
}

const READY: Edges = { ...LIVE, read, stored, submit, remove }

/** Every legal (phase, event) pair. A pair not here changes nothing (the same state, no effects). */
export const TABLE: { readonly [P in OutboxPhase]: Edges } = {
  loading: { ...LIVE, loaded },
  follower: READY,
  drainer: { ...READY, sent, failed, tick: (s, e) => unblock(s, e.now) },
  stopped: { logout, sent: over, failed: over, read: over, stored: over },
  // The race a generation counter once guarded: a send (or a store) that ends after the logout.
  loggedOut: { sent: over, failed: over, read: over, stored: over, logout: over },
}

export function transition(s: OutboxState, e: OutboxEvent): Result {
  const handler = TABLE[s.phase][e.type] as Handler<EventType> | undefined
  return handler ? handler(s, e) : same(s)
}

/** What the app sees: the writes held (not those being dropped), and what the outbox is doing. */
export function snapshotOf(s: OutboxState, mode: OutboxSnapshot['mode']): OutboxSnapshot {
  const entries = s.held.filter((h) => !gone(h)).map((h) => h.entry)
  const status = !entries.length
    ? 'idle'
    : s.held.some((h) => h.phase === 'sending')
      ? 'sending'
      : s.online
        ? 'waiting'
        : 'offline'
  return { status, mode, entries, ...(s.loggedOut && { loggedOut: s.loggedOut }) }
}
