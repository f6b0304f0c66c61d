import { DEV } from '@tandem/contract/dev'
import { abortError } from '../abort.js'
import { TandemError, ValidationError } from '../errors.js'
import { createEmitter } from '../events.js'
import { createStore } from '../store.js'
import { clearKeys, storageKeys } from './clear-persisted.js'
import { PERSIST_DEFAULTS } from './defaults.js'
import { joinSession } from './key-session.js'
import { admit } from './outbox-admit.js'
import { createDrain } from './outbox-drain.js'
import { realtimeLink, restLink } from './outbox-links.js'
import { readStored, toStored, type NewEntry, type ReadOutbox } from './outbox-entries.js'
import { fromWire, toWire } from './outbox-classify.js'
import { watchOnline, watchPageShow } from './page.js'
import { safeStorage } from './storage.js'
import { openTabChannel, type TabMessage } from './tab-channel.js'
import type {
  DurableOutbox,
  DurableOutboxOptions,
  LogoutSource,
  OutboxEntry,
  OutboxEvents,
  OutboxSnapshot,
} from './types.js'

interface Waiter {
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
  /** Lets go of the caller's signal. */
  done: () => void
}

/**
 * Writes that survive: REST writes and realtime publishes are stored (with their idempotency keys)
 * before they are sent, and sent again after a failure for now, a reload or a crash, until the
 * service applies or refuses them. Each is applied once (its key), in order per resource and per
 * channel. Pass it as `createClient({ outbox })` and `createRealtime(source, { outbox })`.
 *
 * @example
 * ```ts
 * const outbox = durableOutbox({ key: `user:${userId}` })
 * const client = createClient({ auth: { url: '/api/tandem-token' }, outbox })
 * outbox.on('refused', ({ entry, error }) => toast(`Not saved: ${error.message}`))
 * ```
 */
export function durableOutbox(options: DurableOutboxOptions): DurableOutbox {
  const { key } = options ?? {}
  if (typeof key !== 'string' || key === '')
    throw new ValidationError('key', DEV && process.env.NODE_ENV !== 'production' && 'must name whose writes these are')
  const d = PERSIST_DEFAULTS
  const { maxEntries = d.maxEntries, maxBytes = d.maxBytes } = options
  const keys = storageKeys(key)
  const events = createEmitter<OutboxEvents>()
  const storage = safeStorage(options.storage, (error) => {
    notify()
    events.emit('fallback', error)
  })
  /** The stored entries as this tab last saw them (its own changes, and the other tabs' news). */
  let entries: OutboxEntry[] = []
  /** Callers in this tab waiting for their write's outcome, by entry id. */
  const waiters = new Map<string, Waiter>()
  let stopped = false
  /** Set by a logout, here or in another tab: nothing is stored, sent or heard any more. */
  let loggedOut: LogoutSource | undefined
  const over = () => stopped || loggedOut !== undefined
  /** Bumped by a logout (here or in another tab): a change or a send begun before it keeps nothing. */
  let generation = 0
  /** A read of the stored list, asked by another tab's change, is on its way. */
  let reloading = false
  /** Writes another tab announced and is storing: shown, not sent from this tab until read back. */
  const unconfirmed = new Set<string>()
  const session = joinSession(storage, keys.session)
  const snapshot = createStore<OutboxSnapshot>({ status: 'idle', mode: storage.mode(), entries })
  const online = watchOnline(() => drain.retryNow())
  const channel = openTabChannel(key, receive, options.BroadcastChannel)
  // A page that slept may have missed a logout: the stored session says.
  const unwatchShow = watchPageShow(() => void session.current().then((ours) => ours || end('another-tab')))

  function notify() {
    const status = !entries.length ? 'idle' : drain.sending() ? 'sending' : online.isOnline() ? 'waiting' : 'offline'
    const s = snapshot.getSnapshot()
    if (s.status !== status || s.entries !== entries || s.mode !== storage.mode() || s.loggedOut !== loggedOut)
      snapshot.set({ status, mode: storage.mode(), entries, ...(loggedOut && { loggedOut }) })
  }

  /**
   * Changes the stored list atomically (other tabs may change it too); `entries` becomes what it is
   * now. What the read finds that must never be sent is left out of what is written, and refused.
   */
  async function change(fn: (stored: OutboxEntry[]) => OutboxEntry[]): Promise<void> {
    const before = generation
    let next: OutboxEntry[] = entries
    let refused: ReadOutbox['refused'] = []
    // Only while the key's session is the one this page joined, looked at in the same transaction.
    const ours = await session.write(keys.outbox, (old) => {
      // Logged out or stopped since the change began: the logout's delete decides, never a list written back.
      if (stopped || generation !== before) return old
      const read = readStored(old)
      refused = read.refused
      return toStored((next = fn(read.entries)))
    })
    if (!ours) return end('another-tab') // the session ended while this page did not hear (asleep)
    refuseAll(refused)
    if (generation !== before) return // logged out meanwhile: what it read is gone
    entries = withAnnounced(next)
    notify()
    channel.post({ t: 'outbox' })
  }

  /**
   * Storage held entries that must never be sent (a path that is none of the contract's writes) or
   * no entry at all: the list is written again without them, so no later read meets them. Each
   * refused one is said once, by the tab whose rewrite dropped it.
   */
  async function purge(): Promise<void> {
    const before = generation
    let refused: ReadOutbox['refused'] = []
    const ours = await session.write(keys.outbox, (old) => {
      if (stopped || generation !== before) return old
      const read = readStored(old)
      refused = read.refused
      return read.refused.length || read.unreadable ? toStored(read.entries) : old
    })
    if (!ours) return end('another-tab')
    refuseAll(refused)
  }

  /** Refused without being sent: its caller (here or in another tab) and the app hear why. */
  function refuseAll(refused: ReadOutbox['refused']) {
    for (const { entry, error } of refused) {
      finish(entry.id, { error })
      events.emit('refused', { entry, error })
    }
  }

  /** The stored list, and the writes other tabs announced that it does not have yet. */
  function withAnnounced(stored: OutboxEntry[]): OutboxEntry[] {
    if (!unconfirmed.size) return stored
    for (const e of stored) unconfirmed.delete(e.id)
    return [...stored, ...entries.filter((e) => unconfirmed.has(e.id))]
  }

  async function reload(): Promise<void> {
    const before = generation
    const read = readStored(await storage.get(keys.outbox))
    if (generation !== before) return
    entries = withAnnounced(read.entries)
    notify()
    if (read.refused.length || read.unreadable) await purge()
  }

  function settle(id: string, outcome: { result?: unknown; error?: TandemError }) {
    const waiter = waiters.get(id)
    if (!waiter) return
    waiters.delete(id)
    waiter.done()
    if (outcome.error) waiter.reject(outcome.error)
    else waiter.resolve(outcome.result)
  }

  function receive(message: TabMessage) {
    if (over()) return
    if (message.t === 'outbox') {
      // A new write shows at once, while the other tab stores it; it is sent from here only once
      // the read after that store has it (so never twice by two tabs).
      const { added } = message
      if (added) {
        if (!entries.some((e) => e.id === added.id)) {
          entries = [...entries, added]
          unconfirmed.add(added.id)
          notify()
        }
        return
      }
      // Many changes in a burst (another tab sending 100 writes): one read of the list for them all.
      if (reloading) return
      reloading = true
      setTimeout(() => {
        reloading = false
        void reload().then(() => drain.wake())
      }, 0)
    } else if (message.t === 'outcome') {
      // Settled by another tab: gone from the list (an announced one never stored here included).
      if (unconfirmed.delete(message.id)) {
        entries = entries.filter((e) => e.id !== message.id)
        notify()
      }
      settle(message.id, message.error ? { error: fromWire(message.error) } : { result: message.result })
    } else if (message.t === 'cleared') end('another-tab')
  }

  /** A write is done with: its caller here, and in the tab that made it. */
  function finish(id: string, outcome: { result?: unknown; error?: TandemError }) {
    settle(id, outcome)
    channel.post(
      outcome.error ? { t: 'outcome', id, error: toWire(outcome.error) } : { t: 'outcome', id, result: outcome.result },
    )
  }

  const drain = createDrain({
    key,
    locks: options.locks,
    random: options.random,
    retry: options.retry,
    online: online.isOnline,
    stopped: over,
    entries: () => (unconfirmed.size ? entries.filter((e) => !unconfirmed.has(e.id)) : entries),
    reload,
    change,
    notify,
    events,
    settle: (entry, outcome) => finish(entry.id, outcome),
  })

  const clearedError = () => new TandemError('The outbox was cleared (logout)', { code: 'outbox_cleared' })

  /** The key's session is over (`by`): what is held is dropped, its callers hear why, nothing more is stored or sent. Once. */
  function end(by: LogoutSource): void {
    if (loggedOut) return
    loggedOut = by
    generation++
    entries = []
    drain.stop()
    online.stop()
    unwatchShow()
    channel.close()
    for (const id of [...waiters.keys()]) settle(id, { error: clearedError() })
    notify()
    events.emit('cleared', { by })
  }

  async function submit(fields: NewEntry, signal?: AbortSignal): Promise<unknown> {
    if (stopped) throw new TandemError('The outbox is stopped', { code: 'outbox_stopped' })
    if (signal?.aborted) throw abortError(signal)
    await ready
    if (loggedOut) throw clearedError()
    if (signal?.aborted) throw abortError(signal)
    const entry = admit(fields, entries, { maxEntries, maxBytes }, (error) => events.emit('full', error))
    let stored = false
    let abortedEarly = false
    const onAbort = () => {
      settle(entry.id, { error: abortError(signal!) })
      if (stored) void remove(entry.id)
      else abortedEarly = true
    }
    const outcome = new Promise<unknown>((resolve, reject) =>
      waiters.set(entry.id, { resolve, reject, done: () => signal?.removeEventListener('abort', onAbort) }),
    )
    outcome.catch(() => undefined) // it may settle (stop, logout, abort) before the caller holds it
    signal?.addEventListener('abort', onAbort, { once: true })
    channel.post({ t: 'outbox', added: entry }) // the other tabs show it now; the store takes a while
    await change((list) => [...list, entry])
    if (loggedOut) return outcome // it settled with `outbox_cleared`
    stored = true
    if (abortedEarly) await remove(entry.id)
    else {
      events.emit('queued', entry)
      drain.wake()
    }
    return outcome
  }

  async function remove(id: string): Promise<boolean> {
    // Being sent, not (yet) stored (another tab announced it and is storing it), or not held: not now.
    if (drain.inFlight(id) || unconfirmed.has(id) || !entries.some((e) => e.id === id)) {
      return false
    }
    await change((list) => list.filter((e) => e.id !== id))
    finish(id, { error: new TandemError('The write was removed from the outbox', { code: 'outbox_removed' }) })
    return true
  }

  // Ready once joined too: a logout from then on is one this outbox is part of.
  const ready = Promise.all([reload(), session.joined]).then(
    () => {
      if (entries.length) events.emit('restore', { entries })
      drain.wake()
    },
    () => undefined,
  )

  return {
    ready,
    getSnapshot: snapshot.getSnapshot,
    subscribe: snapshot.subscribe,
    on: events.on,
    remove,
    rest: (http) => restLink(http, drain, submit),
    realtime: (send) => realtimeLink(send, drain, submit),
    async clearPersisted() {
      end('this-tab')
      await clearKeys(storage, keys)
      const tell = openTabChannel(key, () => {}, options.BroadcastChannel)
      tell.post({ t: 'cleared' })
      tell.close()
    },
    stop() {
      stopped = true
      drain.stop()
      online.stop()
      unwatchShow()
      channel.close()
      for (const id of [...waiters.keys()])
        settle(id, { error: new TandemError('The outbox is stopped', { code: 'outbox_stopped' }) })
    },
  }
}
