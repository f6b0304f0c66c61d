import type { Collection } from '../collection.js'
import type { TandemError } from '../errors.js'
import { CACHE_DEFAULTS } from './defaults.js'
import type { ServiceName, Unsubscribe } from '../types.js'
import { wrongData } from './data-fits.js'
import { createEntry, mergeSettings, type Entry, type EntryContext } from './entry.js'
import { INITIAL } from './entry-actions.js'
import { hashQuery, matchesFilter, normalizeQuery } from './key.js'
import { createFocusManager, createOnlineManager } from './triggers.js'
import type {
  CacheChange,
  CacheEntryInfo,
  CacheEvent,
  CacheFilter,
  CacheOptions,
  CacheQuery,
  DehydratedState,
  GetOptions,
  HydrateOptions,
  HydrateResult,
  ResourceCache,
  WatchOptions,
} from './types.js'

export interface ResourceCacheOptions extends CacheOptions {
  /** Where entries fetch from: `client.collection`. */
  collection: (service: ServiceName, name: string) => Collection<unknown>
}

/**
 * The framework-agnostic resource cache (the model is TanStack's query-core): entries keyed by
 * (service, collection, params | id), each a store with `subscribe`/`getSnapshot`.
 *
 * @example
 * ```ts
 * const client = createClient({ auth: { url: '/api/tandem-token' } })
 * const off = client.cache.watch({ service: 'support', collection: 'conversations', params: { limit: 20 } }, (s) => {
 *   if (s.status === 'success') render(s.items)
 * })
 * ```
 */
export function createResourceCache(options: ResourceCacheOptions): ResourceCache {
  const { focusManager = createFocusManager(), onlineManager = createOnlineManager() } = options
  const d = CACHE_DEFAULTS
  // Without a window (a server, a script) a pending gc timer would hold the process open
  // for minutes; entries live as long as the cache there, as in TanStack Query.
  const gcTime = options.gcTime ?? (typeof window === 'undefined' ? Infinity : d.gcTime)
  const defaults = mergeSettings({ ...d, gcTime, refetchInterval: d.refetchInterval || Infinity }, [options])
  const entries = new Map<string, Entry>()
  let active = 0
  let detach: Unsubscribe[] = []
  const changeListeners = new Set<(change: CacheChange) => void>()

  const revalidate = (flag: 'refetchOnFocus' | 'refetchOnReconnect') => () => {
    if (!ctx.online()) return
    for (const e of entries.values()) if (e.active() && e.settings()[flag] && e.isStale()) void e.fetch()
  }

  const ctx: EntryContext = {
    collection: options.collection,
    defaults,
    online: () => onlineManager.isOnline?.() !== false,
    activity(delta) {
      active += delta
      // Listen to the platform only while some entry is watched.
      if (delta > 0 && active === 1) {
        detach = [
          focusManager.subscribe(revalidate('refetchOnFocus')),
          onlineManager.subscribe(revalidate('refetchOnReconnect')),
        ]
      } else if (active === 0) {
        detach.forEach((off) => off())
        detach = []
      }
    },
    remove(e) {
      if (entries.get(e.hash) === e) entries.delete(e.hash)
      e.dispose()
    },
    // A holder of a collected entry (a mounted component) subscribing again puts it back.
    revive(e) {
      if (!entries.has(e.hash)) entries.set(e.hash, e)
    },
    changed(e) {
      if (!changeListeners.size) return
      const { status, data, dataUpdatedAt } = e.state()
      for (const listener of changeListeners) listener({ query: e.query, status, data, dataUpdatedAt })
    },
  }

  function get(query: CacheQuery, o: GetOptions<unknown> = {}): Entry {
    const hash = hashQuery(query)
    let e = entries.get(hash)
    if (!e) {
      e = createEntry(normalizeQuery(query), hash, ctx)
      entries.set(hash, e)
      e.scheduleGc()
    }
    e.setFn(query.fn)
    // Only an unwatched entry: seeding one that others watch would re-render them mid-render.
    if (o.initialData !== undefined && !e.active())
      e.dispatch({ type: 'seed', data: o.initialData, at: o.initialDataUpdatedAt ?? Date.now() })
    return e
  }

  const matching = (filter: CacheFilter = {}) => [...entries.values()].filter((e) => matchesFilter(e.query, filter))

  /** Marks `e` stale; refetches it now when someone watches it (the others refetch on their next subscribe). */
  function invalidateEntry(e: Entry): Promise<void> {
    e.dispatch({ type: 'invalidate' })
    return e.active() ? e.fetch(true) : Promise.resolve()
  }

  async function fetch(query: CacheQuery, o: { staleTime?: number } = {}) {
    const e = get(query)
    if (e.isStale(o.staleTime ?? defaults.staleTime)) await e.fetch()
    const s = e.getSnapshot()
    if (s.status === 'error' && s.error) throw s.error
    return s
  }

  const cache = {
    get,
    watch(query: CacheQuery, listener: (s: unknown) => void, o?: WatchOptions) {
      const e = get(query)
      let called = false
      const off = e.subscribe(() => {
        called = true
        listener(e.getSnapshot())
      }, o)
      // The current state at once, unless subscribing (a fetch starting) already reported it.
      if (!called) listener(e.getSnapshot())
      return off
    },
    fetch,
    prefetch: (query: CacheQuery, o?: { staleTime?: number }) =>
      fetch(query, o).then(
        () => undefined,
        () => undefined,
      ),
    async invalidate(filter?: CacheFilter) {
      await Promise.all(matching(filter).map(invalidateEntry))
    },
    setData(query: CacheQuery, updater: unknown) {
      const e = get(query)
      const previous = e.state()
      const next = typeof updater === 'function' ? (updater as (p: unknown) => unknown)(previous.data) : updater
      e.dispatch({ type: 'optimistic', data: next, at: Date.now() })
      const { data } = e.state()
      // Restoring over data that changed since (a refetch, another update) would lose it: refetch instead.
      return () => (e.state().data === data ? e.dispatch({ type: 'rollback', to: previous }) : void invalidateEntry(e))
    },
    setLiveError(query: CacheQuery, error: TandemError | null) {
      get(query).dispatch({ type: 'liveError', error })
    },
    applyEvent(filter: CacheFilter, event: CacheEvent<unknown>) {
      // A call has no collection: no event concerns it.
      for (const e of matching(filter))
        if (e.query.key === undefined) e.dispatch({ type: 'live', event, id: e.query.id })
    },
    inspect: (): CacheEntryInfo[] =>
      [...entries.values()].map((e) => {
        const { status, isFetching, isStale, dataUpdatedAt, error, liveError } = e.getSnapshot()
        return {
          hash: e.hash,
          query: e.query,
          status,
          isFetching,
          isStale,
          observers: e.observers(),
          dataUpdatedAt,
          error,
          liveError,
          refetch: e.refetch,
          invalidate: () => invalidateEntry(e),
          remove() {
            if (!e.active()) return ctx.remove(e)
            // Watched: back to its first state, where its subscribers see it (a rollback keeps what
            // fetches and the live error, the binding's), then a forced fetch (it drops one in flight).
            e.dispatch({ type: 'rollback', to: INITIAL })
            void e.fetch(true)
          },
        }
      }),
    dehydrate(): DehydratedState {
      return {
        entries: [...entries.values()].flatMap((e) => {
          const { status, data, dataUpdatedAt } = e.state()
          // A call's function cannot travel: calls are fetched again where the state lands.
          return status === 'success' && e.query.key === undefined ? [{ query: e.query, data, dataUpdatedAt }] : []
        }),
      }
    },
    hydrate(state: DehydratedState, o: HydrateOptions = {}): HydrateResult {
      // `freshMs` given (a saved cache, another tab): that long, then `staleTime` from the data's own time.
      const freshUntil = Date.now() + (o.freshMs ?? Math.max(defaults.staleTime, d.hydrateFreshMs))
      const result: HydrateResult = { entries: 0, refused: [] }
      for (const { query, data, dataUpdatedAt } of state?.entries ?? []) {
        // Refused here, not later: a snapshot, a live patch or a next page would throw on it.
        const why =
          typeof query !== 'object' || query === null
            ? 'query: not a query'
            : Number.isFinite(dataUpdatedAt)
              ? wrongData(query, data)
              : 'dataUpdatedAt: not a time'
        if (why !== undefined) result.refused.push({ query, why })
        else {
          get(query).dispatch({ type: 'hydrate', data, at: dataUpdatedAt, freshUntil })
          result.entries++
        }
      }
      return result
    },
    onChange(listener: (change: CacheChange) => void) {
      const once = (change: CacheChange) => listener(change) // one subscription per call, even of one function
      changeListeners.add(once)
      return () => void changeListeners.delete(once)
    },
    clear() {
      for (const e of entries.values()) ctx.remove(e)
    },
  }
  return cache as ResourceCache
}
