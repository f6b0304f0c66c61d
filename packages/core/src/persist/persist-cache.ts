import { DEV } from '@tandem/contract/dev'
import type { Client } from '../base-client.js'
import { getCache } from '../cache/get-cache.js'
import { hashQuery } from '../cache/key.js'
import type { CacheChange, DehydratedState, HydrateResult, ListQuery } from '../cache/types.js'
import { ValidationError } from '../errors.js'
import { createEmitter } from '../events.js'
import { createStore } from '../store.js'
import { clearKeys, storageKeys } from './clear-persisted.js'
import { PERSIST_DEFAULTS } from './defaults.js'
import { followOutbox } from './follow-outbox.js'
import { joinSession } from './key-session.js'
import { watchPageHide, watchPageShow } from './page.js'
import { safeStorage } from './storage.js'
import { splitSaved, whyNotSaved } from './saved-entries.js'
import { openTabChannel, type TabMessage } from './tab-channel.js'
import { isObject } from '@tandem/contract'
import type {
  CachePersister,
  LogoutSource,
  PersistCacheOptions,
  PersistEvents,
  PersistSnapshot,
  RestoreProblem,
  RestoreReason,
  RestoreResult,
} from './types.js'

/** What is saved under `<key>:cache`. `v` changes when this shape does: another one is discarded. */
interface Saved {
  v: 1
  buster: string
  savedAt: number
  state: DehydratedState
}

const isSaved = (v: unknown): v is Saved =>
  typeof v === 'object' &&
  v !== null &&
  (v as Saved).v === 1 &&
  typeof (v as Saved).buster === 'string' &&
  typeof (v as Saved).savedAt === 'number' &&
  Array.isArray((v as Saved).state?.entries)

/**
 * Saves the client's cache (dehydrated, throttled) and restores it at once, so the first paint shows
 * what the user saw last; restored data is stale, so whatever watches it revalidates. The tabs of one
 * key see each other's cache updates within milliseconds, without a refetch.
 *
 * @example
 * ```ts
 * const persister = persistCache(client, { key: `user:${userId}`, buster: BUILD_ID })
 * await persister.restored // then render
 * // A logout in any tab of the key ends the session here too:
 * persister.on('cleared', () => realtime.close())
 * // logout:
 * await persister.clearPersisted()
 * ```
 */
export function persistCache(client: Client, options: PersistCacheOptions): CachePersister {
  const { key } = options ?? {}
  if (typeof key !== 'string' || key === '')
    throw new ValidationError('key', DEV && process.env.NODE_ENV !== 'production' && 'must name whose cache this is')
  const d = PERSIST_DEFAULTS
  const { maxAgeMs = d.maxAgeMs, buster = '', throttleMs = d.throttleMs } = options
  const cache = getCache(client)
  const events = createEmitter<PersistEvents>()
  const storage = safeStorage(options.storage, (error) => {
    status.set((s) => ({ ...s, mode: 'memory' }))
    events.emit('fallback', error)
  })
  const keys = storageKeys(key)
  const session = joinSession(storage, keys.session)
  const status = createStore<PersistSnapshot>({ status: 'restoring', mode: storage.mode(), restore: undefined })
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  /** Set by a logout, here or in another tab: nothing is saved, posted or heard any more. */
  let loggedOut: LogoutSource | undefined
  /** Entries that changed since the last post to the other tabs, by hash. */
  const outgoing = new Map<string, DehydratedState['entries'][number]>()
  /**
   * What is new: each entry's count of data changes and time, by hash, and the count each data
   * object was last seen at (weak). Data that is the entry's latest at the same time is no news
   * (a fetch starting); an older object coming back (a rollback) is.
   */
  const versions = new Map<string, { n: number; at: number }>()
  const seenAs = new WeakMap<object, number>()
  /** Data this tab shows because another tab told it (weak: collected entries are not held). */
  const fromRemote = new WeakSet<object>()
  /** While another tab's entries land: their changes are not echoed back. */
  let applyingRemote = false
  /** While the cache is emptied for a logout: nothing of it is saved or posted. */
  let clearing = false

  const channel = openTabChannel(key, receive, options.BroadcastChannel)

  function receive(message: TabMessage) {
    if (stopped || loggedOut) return
    if (message.t === 'cleared') return end('another-tab')
    if (message.t !== 'entries') return
    // Checked as a saved cache is: one entry of the wrong shape is left out, the others land.
    const { fit, problems } = splitSaved(message.entries, Date.now())
    // What this tab shows because the sender told it follows the sender even back in time (a
    // rollback restores older data); what this tab fetched itself is replaced only by newer.
    const entries = fit.map((e) => {
      const { data, dataUpdatedAt } = cache.get(e.query as ListQuery<unknown>).getSnapshot()
      return isObject(data) && fromRemote.has(data)
        ? { ...e, dataUpdatedAt: Math.max(e.dataUpdatedAt, dataUpdatedAt) }
        : e
    })
    applyingRemote = true
    let landed: HydrateResult
    try {
      // Fresh for this tab as for the sender: its `dataUpdatedAt` decides, no refetch.
      landed = cache.hydrate({ entries }, { freshMs: 0 })
    } finally {
      applyingRemote = false
    }
    for (const e of entries) {
      const { data } = cache.get(e.query as ListQuery<unknown>).getSnapshot()
      if (isObject(data)) fromRemote.add(data)
    }
    events.emit('remote', { entries: landed.entries, dropped: problems.length + landed.refused.length })
  }

  async function save(): Promise<void> {
    clearTimeout(timer)
    timer = undefined
    if (stopped || loggedOut) return
    // As JSON: plain data any storage can clone (a class instance in the cache would fail the save).
    const state = JSON.parse(JSON.stringify(cache.dehydrate())) as DehydratedState
    const saved: Saved = { v: 1, buster, savedAt: Date.now(), state }
    // Only while the key's session is the one this page joined, looked at in the same transaction:
    // a save on its way when a logout lands (here or in another tab) writes nothing back.
    let wrote = false
    const ours = await session.write(keys.cache, (old) => (loggedOut ? old : ((wrote = true), saved)))
    if (!ours) return end('another-tab') // the session ended while this page did not hear (asleep)
    if (wrote) events.emit('save', { entries: state.entries.length })
  }

  function changed(change: CacheChange) {
    if (stopped || loggedOut || clearing || change.status !== 'success' || change.query.key !== undefined) return
    // Only new data counts: a fetch starting or cancelled changes nothing worth saving or telling.
    const { data, dataUpdatedAt } = change
    const hash = hashQuery(change.query)
    const last = versions.get(hash)
    if (last && last.at === dataUpdatedAt && isObject(data) && seenAs.get(data) === last.n) return
    const n = (last?.n ?? 0) + 1
    versions.set(hash, { n, at: dataUpdatedAt })
    if (isObject(data)) seenAs.set(data, n)
    if (applyingRemote) return // the sender saves it, and the other tabs have it
    if (!outgoing.size) queueMicrotask(post)
    outgoing.set(hash, { query: change.query, data, dataUpdatedAt })
    timer ??= setTimeout(() => void save(), throttleMs)
  }

  function post() {
    if (!outgoing.size || stopped || loggedOut) return
    channel.post({ t: 'entries', entries: [...outgoing.values()] })
    outgoing.clear()
  }

  async function restore(): Promise<RestoreResult> {
    const done = (entries: number, reason: RestoreReason, problems: RestoreProblem[] = []): RestoreResult => ({
      entries,
      reason,
      dropped: problems.length,
      problems,
    })
    const saved = await storage.get(keys.cache)
    if (saved === undefined) return done(0, 'empty')
    if (!isSaved(saved)) return (await storage.del(keys.cache), done(0, 'unreadable'))
    if (saved.buster !== buster) return (await storage.del(keys.cache), done(0, 'busted'))
    const now = Date.now()
    const oldest = now - maxAgeMs
    if (saved.savedAt < oldest) return (await storage.del(keys.cache), done(0, 'expired'))
    // Entry by entry: one of the wrong shape is left out on its own, the others restore.
    const { fit, problems } = splitSaved(saved.state.entries, now)
    const entries = fit.filter((e) => e.dataUpdatedAt >= oldest)
    applyingRemote = true // what was saved is not news to the other tabs
    let landed: HydrateResult
    try {
      // Stale at once: what watches it shows it, then revalidates.
      landed = cache.hydrate({ entries }, { freshMs: 0 })
    } finally {
      applyingRemote = false
    }
    for (const { query, why } of landed.refused) problems.push({ key: hashQuery(query), why })
    if (problems.length) await forget(now)
    return done(landed.entries, landed.entries ? 'restored' : problems.length ? 'unreadable' : 'expired', problems)
  }

  /** Writes the saved cache again without its entries of the wrong shape (atomically: another tab may be saving). */
  async function forget(now: number): Promise<void> {
    await session.write(keys.cache, (old) =>
      isSaved(old)
        ? {
            ...old,
            state: { ...old.state, entries: old.state.entries.filter((e) => whyNotSaved(e, now) === undefined) },
          }
        : old,
    )
  }

  function wipe() {
    clearTimeout(timer)
    timer = undefined
    outgoing.clear()
    versions.clear()
    clearing = true
    try {
      cache.clear()
    } finally {
      clearing = false
    }
  }

  /** Stops saving and listening (the page's listeners, the outbox's, the other tabs'). */
  function detach() {
    clearTimeout(timer)
    offChange()
    unfollow()
    unwatchPage()
    unwatchShow()
    channel.close()
  }

  /** The key's session is over (`by`): the cache empties, and nothing is saved or heard any more. Once. */
  function end(by: LogoutSource): void {
    if (loggedOut) return
    loggedOut = by
    detach()
    wipe()
    status.set((s) => ({ ...s, loggedOut: by }))
    events.emit('cleared', { by })
  }

  /** A page that slept may have missed a logout: the stored session says. */
  async function check(): Promise<void> {
    if (!stopped && !loggedOut && !(await session.current())) end('another-tab')
  }

  const offChange = cache.onChange(changed)
  // The outbox it was given ends with it: one logout, whichever of the two was told.
  const unfollow = options.outbox ? followOutbox(cache, options.outbox, end) : () => {}
  const unwatchPage = watchPageHide(() => void save())
  const unwatchShow = watchPageShow(() => void check())
  // Restored once joined too (a read; a write only when a session begins): a logout from then on is one it is part of.
  const restored = Promise.all([restore(), session.joined]).then(
    ([result]) => result,
    (): RestoreResult => ({ entries: 0, reason: 'unreadable', dropped: 0, problems: [] }),
  )
  void restored.then((result) => {
    status.set((s) => ({ ...s, status: 'restored', restore: result }))
    events.emit('restore', result)
  })

  return {
    restored,
    getSnapshot: status.getSnapshot,
    subscribe: status.subscribe,
    on: events.on,
    flush: save,
    async clearPersisted() {
      // The outbox first: it ends as this tab's logout, before any tab's `cleared` reaches it.
      const outbox = options.outbox?.clearPersisted()
      end('this-tab')
      await clearKeys(storage, keys)
      const tell = openTabChannel(key, () => {}, options.BroadcastChannel)
      tell.post({ t: 'cleared' })
      tell.close()
      await outbox
    },
    stop() {
      stopped = true
      detach()
    },
  }
}
