import { DEV } from '@tandem/contract/dev'
import type { Client } from '../base-client.js'
import { getCache } from '../cache/get-cache.js'
import { hashQuery } from '../cache/key.js'
import type { CacheChange, DehydratedState, HydrateResult, ListQuery } from '../cache/types.js'
import { createEmitter } from '../events.js'
import { createStore } from '../store.js'
import { clearAndTell, keyOption, storageKeys } from './clear-persisted.js'
import { PERSIST_DEFAULTS } from './defaults.js'
import { followOutbox } from './follow-outbox.js'
import { joinSession } from './key-session.js'
import { watchPageHide, watchPageShow } from './page.js'
import {
  initialPersistState,
  transition,
  type PersistEffect,
  type PersistEvent,
  type PersistState,
} from './persist-cache-machine.js'
import { restoreSaved, type Saved } from './restore-saved.js'
import { safeStorage } from './storage.js'
import { splitSaved, type SavedEntry } from './saved-entries.js'
import { openTabChannel } from './tab-channel.js'
import { isObject } from '@tandem/contract'
import type { CachePersister, PersistCacheOptions, PersistEvents, PersistSnapshot, RestoreResult } from './types.js'

/**
 * What is news in the cache's changes: each entry's count of data changes and time, by hash, and
 * the count each data object was last seen at. Data that is the entry's latest at the same time is
 * no news (a fetch starting); an older object coming back (a rollback) is.
 */
function createNews() {
  const versions = new Map<string, { n: number; at: number }>()
  // Weak, by data object: the data of entries the cache has let go is not held here.
  const seenAs = new WeakMap<object, number>()
  return {
    is(hash: string, data: unknown, at: number): boolean {
      const last = versions.get(hash)
      if (last && last.at === at && isObject(data) && seenAs.get(data) === last.n) return false
      const n = (last?.n ?? 0) + 1
      versions.set(hash, { n, at })
      if (isObject(data)) seenAs.set(data, n)
      return true
    },
    clear: () => versions.clear(),
  }
}

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
  const key = keyOption(options, DEV && process.env.NODE_ENV !== 'production' && 'must name whose cache this is')
  const d = PERSIST_DEFAULTS
  const { maxAgeMs = d.maxAgeMs, buster = '', throttleMs = d.throttleMs } = options
  const cache = getCache(client)
  const events = createEmitter<PersistEvents>()
  const storage = safeStorage(options.storage, (error) => dispatch({ type: 'fallback', error }))
  const keys = storageKeys(key)
  const news = createNews()
  /** Data this tab shows because another tab told it (weak: collected entries are not held). */
  const fromRemote = new WeakSet<object>()

  // The one state, changed only by `dispatch`; the public snapshot follows it on `publish`.
  let state: PersistState = initialPersistState(storage.mode())
  const snapshot = createStore<PersistSnapshot>({ status: 'restoring', mode: state.mode, restore: undefined })
  /** The throttle's timer, and the last write (what `flush()` waits for). */
  let timer: ReturnType<typeof setTimeout> | undefined
  let writing: Promise<void> = Promise.resolve()

  function dispatch(event: PersistEvent): void {
    const r = transition(state, event)
    state = r.state
    for (const effect of r.effects) run(effect)
  }

  function run(e: PersistEffect): void {
    switch (e.type) {
      case 'queue_post':
        return queueMicrotask(() => dispatch({ type: 'post' }))
      case 'post':
        return channel.post({ t: 'entries', entries: e.entries })
      case 'schedule_save':
        timer = setTimeout(() => dispatch({ type: 'save' }), throttleMs)
        return
      case 'write':
        clearTimeout(timer)
        writing = write()
        return
      case 'land':
        return land(e.entries)
      case 'check':
        return void session.current().then((current) => dispatch({ type: 'session', current }))
      case 'detach':
        clearTimeout(timer)
        offChange()
        unfollow()
        unwatchPage()
        unwatchShow()
        channel.close()
        return
      case 'wipe':
        news.clear()
        return cache.clear()
      case 'publish': {
        const { mode, restore, loggedOut } = state
        const status = restore ? 'restored' : 'restoring'
        return snapshot.set((s) =>
          s.status === status && s.mode === mode && s.restore === restore && s.loggedOut === loggedOut
            ? s
            : { status, mode, restore, ...(loggedOut && { loggedOut }) },
        )
      }
      case 'tell':
        return (events.emit as (event: string, value: unknown) => void)(e.event, e.value)
    }
  }

  /** Puts entries in the cache, stale at once; their changes are nobody's news (not saved, not posted). */
  function hydrate(
    entries: SavedEntry[],
    remote?: (landed: HydrateResult) => { entries: number; dropped: number },
  ): HydrateResult {
    dispatch({ type: 'landing' })
    let landed: HydrateResult | undefined
    try {
      return (landed = cache.hydrate({ entries }, { freshMs: 0 }))
    } finally {
      dispatch({ type: 'landed', remote: landed && remote?.(landed) })
    }
  }

  /** Another tab's entries, checked as a saved cache is: one of the wrong shape is left out, the others land. */
  function land(raw: readonly unknown[]): void {
    const { fit, problems } = splitSaved(raw, Date.now())
    // What this tab shows because the sender told it follows the sender even back in time (a
    // rollback restores older data); what this tab fetched itself is replaced only by newer.
    const entries = fit.map((e) => {
      const { data, dataUpdatedAt } = cache.get(e.query as ListQuery<unknown>).getSnapshot()
      return isObject(data) && fromRemote.has(data)
        ? { ...e, dataUpdatedAt: Math.max(e.dataUpdatedAt, dataUpdatedAt) }
        : e
    })
    // Fresh for this tab as for the sender: its `dataUpdatedAt` decides, no refetch.
    hydrate(entries, (landed) => {
      for (const e of entries) {
        const { data } = cache.get(e.query as ListQuery<unknown>).getSnapshot()
        if (isObject(data)) fromRemote.add(data)
      }
      return { entries: landed.entries, dropped: problems.length + landed.refused.length }
    })
  }

  async function write(): Promise<void> {
    // As JSON: plain data any storage can clone (a class instance in the cache would fail the save).
    const dehydrated = JSON.parse(JSON.stringify(cache.dehydrate())) as DehydratedState
    const saved: Saved = { v: 1, buster, savedAt: Date.now(), state: dehydrated }
    // Only while the key's session is the one this page joined, looked at in the same transaction:
    // a save on its way when a logout lands (here or in another tab) writes nothing back.
    let wrote = false
    const ours = await session.write(keys.cache, (old) => (state.loggedOut ? old : ((wrote = true), saved)))
    dispatch({ type: 'saved', ours, entries: wrote ? dehydrated.entries.length : undefined })
  }

  function changed(change: CacheChange) {
    // Only new data counts: a fetch starting or cancelled changes nothing worth saving or telling.
    if (change.status !== 'success' || change.query.key !== undefined) return
    const { query, data, dataUpdatedAt } = change
    const hash = hashQuery(query)
    if (news.is(hash, data, dataUpdatedAt)) dispatch({ type: 'change', hash, entry: { query, data, dataUpdatedAt } })
  }

  // The tabs of the key, and the key's session: a logout heard, or found on waking, is an event.
  const channel = openTabChannel(key, (message) => dispatch({ type: 'heard', message }), options.BroadcastChannel)
  const session = joinSession(storage, keys.session)
  const offChange = cache.onChange(changed)
  // The outbox it was given ends with it: one logout, whichever of the two was told.
  const unfollow = options.outbox
    ? followOutbox(cache, options.outbox, (by) => dispatch({ type: 'logout', by }))
    : () => {}
  const unwatchPage = watchPageHide(() => dispatch({ type: 'save' }))
  const unwatchShow = watchPageShow(() => dispatch({ type: 'woke' }))
  // Restored once joined too (a read; a write only when a session begins): a logout from then on is one it is part of.
  const restoring = restoreSaved(storage, session, keys.cache, buster, maxAgeMs, Date.now, hydrate)
  const restored = Promise.all([restoring, session.joined]).then(
    ([result]) => result,
    (): RestoreResult => ({ entries: 0, reason: 'unreadable', dropped: 0, problems: [] }),
  )
  void restored.then((result) => dispatch({ type: 'restored', result }))

  return {
    restored,
    getSnapshot: snapshot.getSnapshot,
    subscribe: snapshot.subscribe,
    on: events.on,
    flush() {
      dispatch({ type: 'save' })
      return writing
    },
    async clearPersisted() {
      // The outbox first: it ends as this tab's logout, before any tab's `cleared` reaches it.
      const outbox = options.outbox?.clearPersisted()
      dispatch({ type: 'logout', by: 'this-tab' })
      await clearAndTell(storage, key, options.BroadcastChannel)
      await outbox
    },
    stop: () => dispatch({ type: 'stop' }),
  }
}
