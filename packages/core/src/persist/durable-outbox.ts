import { DEV } from '@tandem/contract/dev'
import { abortError } from '../abort.js'
import { createElection, type Election } from '../cross-tab/election.js'
import { platformLocks } from '../cross-tab/platform.js'
import { TandemError, ValidationError } from '../errors.js'
import { createEmitter } from '../events.js'
import type { DiscardFiles } from '../outbox-link.js'
import { createStore } from '../store.js'
import { clampDelay } from '../timers.js'
import { clearAndTell, keyOption, storageKeys } from './clear-persisted.js'
import { PERSIST_DEFAULTS } from './defaults.js'
import { joinSession } from './key-session.js'
import { admit } from './outbox-admit.js'
import { fromWire, toTandemError, toWire } from './outbox-classify.js'
import { checkEntry, type NewEntry } from './outbox-entries.js'
import { realtimeLink, restLink, type Senders } from './outbox-links.js'
import {
  initialState,
  snapshotOf,
  transition,
  type Kind,
  type Outcome,
  type OutboxEffect,
  type OutboxEvent,
} from './outbox-machine.js'
import { outboxStorage } from './outbox-storage.js'
import { outboxUploads } from './outbox-uploads.js'
import { watchOnline, watchPageShow } from './page.js'
import { safeStorage } from './storage.js'
import { openTabChannel, type TabMessage } from './tab-channel.js'
import type { DurableOutbox, DurableOutboxOptions, OutboxEntry, OutboxEvents, OutboxSnapshot } from './types.js'

interface Waiter {
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
  /** Lets go of the caller's signal. */
  done: () => void
}

const notAnEntry = () =>
  new ValidationError('entry', DEV && process.env.NODE_ENV !== 'production' && 'not an outbox entry')
const removedError = () => new TandemError('The write was removed from the outbox', { code: 'outbox_removed' })
const endError = (code: 'outbox_cleared' | 'outbox_stopped') =>
  new TandemError(code === 'outbox_cleared' ? 'The outbox was cleared (logout)' : 'The outbox is stopped', { code })

/**
 * Writes that survive: REST writes and realtime publishes are stored (with their idempotency keys)
 * before they are sent, and sent again after a failure for now, a reload or a crash, until the
 * service applies or refuses them. Each is applied once (its key), in order per resource and per
 * channel. Pass it as `createClient({ outbox })` and `createRealtime(source, { outbox })`.
 *
 * The outbox machine (outbox-machine.ts) decides; this runner stores, sends, waits, talks to the
 * other tabs and feeds what came of it back in, through `dispatch` only.
 *
 * @example
 * ```ts
 * const outbox = durableOutbox({ key: `user:${userId}` })
 * const client = createClient({ auth: { url: '/api/tandem-token' }, outbox })
 * outbox.on('refused', ({ entry, error }) => toast(`Not saved: ${error.message}`))
 * ```
 */
export function durableOutbox(options: DurableOutboxOptions): DurableOutbox {
  const key = keyOption(options, DEV && process.env.NODE_ENV !== 'production' && 'must name whose writes these are')
  // Each held write is a record of its own: found again (after a reload, in another tab) by its key.
  if (options.storage && !options.storage.keys)
    throw new ValidationError(
      'storage',
      DEV &&
        process.env.NODE_ENV !== 'production' &&
        'must list its keys (keys()): each held write is stored under its own',
    )
  const d = PERSIST_DEFAULTS
  const { maxEntries = d.maxEntries, maxBytes = d.maxBytes, maxFileBytes = d.maxFileBytes } = options
  const retry = { baseMs: options.retry?.baseMs ?? d.retryBaseMs, maxMs: options.retry?.maxMs ?? d.retryMaxMs }
  const random = options.random ?? Math.random
  const locks = options.locks ?? platformLocks()
  const keys = storageKeys(key)
  const events = createEmitter<OutboxEvents>()
  const storage = safeStorage(options.storage, (error) => {
    publish()
    events.emit('fallback', error)
  })
  /** Callers in this tab waiting for their write's outcome, by entry id. */
  const waiters = new Map<string, Waiter>()
  /** How each kind of write is sent (each client gives its own). */
  const senders = new Map<Kind, (entry: OutboxEntry, ended: AbortSignal) => Promise<unknown>>()
  /** Aborted at the end (logout, stop): the sends under way stop (a write with files: its uploads too). */
  const ended = new AbortController()
  const elections: Election[] = []
  let timer: { at: number; id: ReturnType<typeof setTimeout> } | undefined
  const online = watchOnline((on) => dispatch({ type: on ? 'online' : 'offline' }))
  let state = initialState({ online: online.isOnline(), retry, startedAt: Date.now() })
  const live = () => state.phase !== 'stopped' && state.phase !== 'loggedOut'
  const session = joinSession(storage, keys.session)
  const stored = outboxStorage(storage, session, keys.outbox, live)
  const uploads = outboxUploads(storage, session, keys.uploads, live)
  const snapshot = createStore<OutboxSnapshot>(snapshotOf(state, storage.mode()))
  const channel = openTabChannel(key, receive, options.BroadcastChannel)
  // A page that slept may have missed a logout: the stored session says.
  const unwatchShow = watchPageShow(
    () => void session.current().then((ours) => ours || dispatch({ type: 'logout', by: 'another-tab' })),
  )

  /** The snapshot, a new object only when what it shows changed. */
  function publish() {
    const next = snapshotOf(state, storage.mode())
    const s = snapshot.getSnapshot()
    const sameEntries = s.entries.length === next.entries.length && s.entries.every((e, i) => e === next.entries[i])
    if (s.status !== next.status || s.mode !== next.mode || s.loggedOut !== next.loggedOut || !sameEntries)
      snapshot.set(sameEntries ? { ...next, entries: s.entries } : next)
  }

  const queue: OutboxEvent[] = []
  let dispatching = false
  /** The one writer: an event in, the machine's next state, its effects carried out (events they cause queue up). */
  function dispatch(event: OutboxEvent): void {
    queue.push(event)
    if (dispatching) return
    dispatching = true
    try {
      for (let e = queue.shift(); e; e = queue.shift()) {
        const r = transition(state, e)
        state = r.state
        publish()
        r.effects.forEach(run)
      }
    } finally {
      dispatching = false
    }
  }

  function run(effect: OutboxEffect): void {
    switch (effect.type) {
      case 'put':
      case 'remove':
        return void stored.write(effect).then(({ ours, found }) => {
          if (!ours)
            dispatch({ type: 'logout', by: 'another-tab' }) // the session ended while this page did not hear (asleep)
          else if (found !== undefined) dispatch({ type: 'stored', op: effect, found })
        })
      case 'reload':
        return void stored.read().then((read) => dispatch({ type: 'read', read }))
      case 'send':
        return send(effect.entry)
      case 'wait':
        return wait(effect.until)
      case 'elect': {
        const { kind } = effect
        const won = () => dispatch({ type: 'elected', kind })
        // Without Web Locks no tab can share the work: each sends (the idempotency key keeps it once).
        if (!locks) return won()
        return void elections.push(createElection({ locks, name: `tandem:outbox:${key}:${kind}`, won }))
      }
      case 'settle':
        settle(effect.id, effect.outcome)
        if (effect.tell) channel.post(toMessage(effect.id, effect.outcome))
        return
      case 'post':
        return channel.post(effect.message)
      case 'emit':
        return (events.emit as (name: string, value: unknown) => void)(effect.name, effect.value)
      case 'end':
        clearTimeout(timer?.id)
        elections.splice(0).forEach((e) => e.stop())
        online.stop()
        unwatchShow()
        channel.close()
        ended.abort(endError(effect.why)) // the reason tells the uploader: a stop keeps the uploads, a logout deletes them
        for (const id of [...waiters.keys()]) settle(id, { error: endError(effect.why) })
    }
  }

  function send(entry: OutboxEntry): void {
    // Checked again right before it goes: whatever put it in the list, only a write of the contract is sent.
    new Promise((resolve) => {
      const checked = checkEntry(entry)
      if (!checked || checked.error) throw checked?.error ?? notAnEntry()
      resolve(senders.get(entry.kind)!(entry, ended.signal))
    }).then(
      (result) => dispatch({ type: 'sent', id: entry.id, result }),
      (thrown: unknown) =>
        dispatch({ type: 'failed', id: entry.id, error: toTandemError(thrown), now: Date.now(), random: random() }),
    )
  }

  /** One timer, at the earliest tick asked for. */
  function wait(until: number): void {
    if (timer && timer.at <= until) return
    clearTimeout(timer?.id)
    const tick = () => {
      timer = undefined
      dispatch({ type: 'tick', now: Date.now() })
    }
    timer = { at: until, id: setTimeout(tick, clampDelay(until - Date.now(), 0, Infinity) ?? 0) }
  }

  function settle(id: string, outcome: Outcome) {
    const waiter = waiters.get(id)
    if (!waiter) return
    waiters.delete(id)
    waiter.done()
    if (outcome.error) waiter.reject(outcome.error)
    else waiter.resolve(outcome.result)
  }

  const toMessage = (id: string, o: Outcome): TabMessage =>
    o.error ? { t: 'outcome', id, error: toWire(o.error) } : { t: 'outcome', id, result: o.result }

  function receive(m: TabMessage) {
    if (m.t === 'outbox') dispatch(m.added ? { type: 'announced', entry: m.added } : { type: 'changed' })
    else if (m.t === 'outcome')
      dispatch({ type: 'outcome', id: m.id, outcome: m.error ? { error: fromWire(m.error) } : { result: m.result } })
    else if (m.t === 'cleared') dispatch({ type: 'logout', by: 'another-tab' })
  }

  async function submit(fields: NewEntry, signal?: AbortSignal): Promise<unknown> {
    // Before and after the first read: the outbox may have ended (or the caller let go) meanwhile.
    const check = () => {
      const ended = state.phase === 'loggedOut' ? 'outbox_cleared' : state.phase === 'stopped' && 'outbox_stopped'
      if (ended) throw endError(ended)
      if (signal?.aborted) throw abortError(signal)
    }
    check()
    await ready
    check()
    const held = snapshot.getSnapshot().entries
    const entry = admit(fields, held, { maxEntries, maxBytes, maxFileBytes }, (error) => events.emit('full', error))
    const onAbort = () => dispatch({ type: 'remove', id: entry.id, error: abortError(signal!), aborted: true })
    const outcome = new Promise<unknown>((resolve, reject) =>
      waiters.set(entry.id, { resolve, reject, done: () => signal?.removeEventListener('abort', onAbort) }),
    )
    outcome.catch(() => undefined) // it may settle (stop, logout, abort) before the caller holds it
    signal?.addEventListener('abort', onAbort, { once: true })
    dispatch({ type: 'submit', entry })
    return outcome
  }

  /** Drops a held write; not now when it is being sent, being stored by another tab, or not held (the machine leaves it). */
  function drop(id: string, error: TandemError): Promise<boolean> {
    const event: OutboxEvent = { type: 'remove', id, error }
    const removable = transition(state, event).state !== state
    dispatch(event)
    return Promise.resolve(removable)
  }

  /** The client's way to end a dropped write's uploads (given with its REST pipeline). */
  let discarder: DiscardFiles | undefined
  async function discard(idempotencyKey: string): Promise<void> {
    try {
      await discarder?.(idempotencyKey, await uploads.urls(idempotencyKey))
    } finally {
      await uploads.forget(idempotencyKey).catch(() => undefined)
    }
  }

  const senderOf: Senders = (kind, sender) => {
    senders.set(kind, sender)
    dispatch({ type: 'sender', kind })
  }

  // Ready once joined too: a logout from then on is one this outbox is part of.
  const ready = Promise.all([stored.read(), session.joined]).then(
    ([read]) => dispatch({ type: 'loaded', read }),
    () => undefined,
  )

  return {
    ready,
    getSnapshot: snapshot.getSnapshot,
    subscribe: snapshot.subscribe,
    on: events.on,
    async remove(id) {
      const entry = snapshot.getSnapshot().entries.find((e) => e.id === id)
      const removed = await drop(id, removedError())
      // Its files: the progress row ends, the uploads are deleted, the saved URLs go.
      if (removed && entry?.kind === 'rest' && entry.files?.length) void discard(entry.idempotencyKey)
      return removed
    },
    // A cancel of a write with files that waits for its retry drops it the same way, `upload_cancelled` its outcome.
    rest(http, discardFiles) {
      discarder = discardFiles
      return restLink(http, senderOf, submit, { ...uploads, drop })
    },
    realtime: (send) => realtimeLink(send, senderOf, submit),
    async clearPersisted() {
      dispatch({ type: 'logout', by: 'this-tab' })
      await clearAndTell(storage, key, options.BroadcastChannel)
    },
    stop: () => dispatch({ type: 'stop' }),
  }
}
