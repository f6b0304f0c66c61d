import { fullJitter } from '../backoff.js'
import { isRetryable } from './outbox-classify.js'
import type { ReadOutbox } from './outbox-entries.js'
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
  StoreOp,
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
const store = (op: StoreOp): OutboxEffect => ({ type: 'store', op })
/** One of OutboxEvents as an effect (its value checked against the event's). */
const emit = <K extends keyof OutboxEvents>(name: K, value: Parameters<OutboxEvents[K]>[0]) =>
  ({ type: 'emit', name, value }) as Emit
const settle = (id: string, outcome: Outcome, tell: boolean): OutboxEffect => ({ type: 'settle', id, outcome, tell })
const gone = (h: Held) => h.phase === 'settled' || h.phase === 'refused'

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

/**
 * The stored list as read (`read`), with what this tab knows that storage cannot say: a write
 * announced and not stored yet, one being sent, one waiting out its backoff, one whose drop is on
 * its way (kept until the read of that very drop). What the read found that must never be sent
 * is refused here when this read is of a store (that store left it out): said once, by that tab.
 */
function merge(s: OutboxState, read: ReadOutbox, op?: StoreOp): Result {
  const local = new Map(s.held.map((h) => [h.entry.id, h]))
  const effects: OutboxEffect[] = []
  const held: Held[] = []
  const stored = new Set<string>()
  for (const entry of read.entries) {
    stored.add(entry.id)
    const h = local.get(entry.id)
    if (!h || h.phase === 'announced') {
      held.push({ entry, phase: 'stored', own: h?.own })
      if (h?.own && op?.type === 'add' && op.entry.id === entry.id) effects.push(emit('queued', entry))
    } else if (h.phase === 'stored' || h.phase === 'blocked') held.push({ ...h, entry })
    else held.push(h)
  }
  for (const h of s.held) {
    if (stored.has(h.entry.id)) continue
    const dropped = op?.type === 'drop' && op.id === h.entry.id
    // Not stored yet, or being sent: kept. Stored or waiting: another tab sent or removed it.
    if (h.phase === 'announced' || h.phase === 'sending' || (gone(h) && !dropped)) held.push(h)
    else if (dropped && h.outcome) {
      const { entry, outcome } = h
      effects.push(
        settle(entry.id, outcome, true),
        outcome.error
          ? emit('refused', { entry, error: outcome.error })
          : emit('applied', { entry, result: outcome.result }),
      )
    }
  }
  if (op)
    for (const { entry, error } of read.refused) {
      effects.push(settle(entry.id, { error }, true), emit('refused', { entry, error }))
    }
  else if (read.refused.length || read.unreadable) effects.push(store({ type: 'purge' }))
  return { state: { ...s, held }, effects }
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
    ? [emit('restore', { entries: state.held.map((h) => h.entry) })]
    : []
  return readDone(s, { state: { ...state, phase }, effects: [...restore, ...effects] })
}

const read: Handler<'read'> = (s, e) => {
  const r = merge(s, e.read, e.op)
  // Stored: the other tabs read the list again. Else a read asked for by `reload`.
  return e.op
    ? pump({ state: r.state, effects: [...r.effects, { type: 'post', message: { t: 'outbox' } }] })
    : readDone(s, r)
}

const sender: Handler<'sender'> = (s, e) =>
  s.senders.includes(e.kind)
    ? same(s)
    : with_(s, { senders: [...s.senders, e.kind] }, [{ type: 'elect', kind: e.kind }])

const elected: Handler<'elected'> = (s, e) => {
  const drains: Kind[] = s.drains.includes(e.kind) ? [...s.drains] : [...s.drains, e.kind]
  if (s.phase === 'loading') return same({ ...s, drains })
  // Storage is the truth now: the last drainer may have sent some since this tab last read.
  const r = reread({ ...s, drains, phase: 'drainer' })
  return pump(r)
}

const submit: Handler<'submit'> = (s, e) =>
  with_(s, { held: [...s.held, { entry: e.entry, phase: 'announced', own: true }] }, [
    { type: 'post', message: { t: 'outbox', added: e.entry } }, // the other tabs show it now; the store takes a while
    store({ type: 'add', entry: e.entry }),
  ])

const announced: Handler<'announced'> = (s, e) =>
  s.held.some((h) => h.entry.id === e.entry.id)
    ? same(s)
    : with_(s, { held: [...s.held, { entry: e.entry, phase: 'announced' }] })

/** A send ended for good: the write's drop goes to storage; its caller hears `outcome` once that is read back. */
const done = (s: OutboxState, h: Held, phase: 'settled' | 'refused', outcome: Outcome): Result =>
  pump({ state: replace(s, h.entry.id, { ...h, phase, outcome }), effects: [store({ type: 'drop', id: h.entry.id })] })

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
    effects: [
      store({ type: 'failed', id: e.id, attempts, lastError }),
      emit('retry', { entry, error: e.error, delayMs }),
      ...waitFor(state),
    ],
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
  return {
    state,
    effects: [settle(e.id, { error: e.error }, true), store({ type: 'drop', id: e.id })],
  }
}

const logout: Handler<'logout'> = (s, e) =>
  with_(s, { phase: 'loggedOut', loggedOut: e.by, held: [] }, [
    { type: 'end', why: 'outbox_cleared' },
    emit('cleared', { by: e.by }),
  ])

const stop: Handler<'stop'> = (s) => with_(s, { phase: 'stopped' }, [{ type: 'end', why: 'outbox_stopped' }])

/** After a logout or a stop, what was on its way (a send, a store's read) changes nothing and writes nothing. */
const over = (s: OutboxState): Result => same(s)

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

const READY: Edges = { ...LIVE, read, submit, remove }

/** Every legal (phase, event) pair. A pair not here changes nothing (the same state, no effects). */
export const TABLE: { readonly [P in OutboxPhase]: Edges } = {
  loading: { ...LIVE, loaded },
  follower: READY,
  drainer: { ...READY, sent, failed, tick: (s, e) => unblock(s, e.now) },
  stopped: { logout, sent: over, failed: over, read: over },
  // The race a generation counter once guarded: a send (or a store) that ends after the logout.
  loggedOut: { sent: over, failed: over, read: over, logout: over },
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
