import type { ListParams, Page, Resource } from '../collection.js'
import type { TandemError } from '../errors.js'
import type { ServiceName, Unsubscribe } from '../types.js'
import type { OnlineManager, Trigger } from './triggers.js'

// ---- Keys --------------------------------------------------------------------

/** Type only (never set): what a query's data holds, so the cache's methods infer it. */
declare const ITEM: unique symbol

/**
 * A list of a collection: its pages for these params. Build it with `listQuery(path, params)`
 * to have `T` (and the params) typed from the contract's registry.
 */
export interface ListQuery<T = Resource> {
  service: ServiceName
  collection: string
  params?: ListParams
  id?: undefined
  key?: undefined
  fn?: undefined
  readonly [ITEM]?: T
}

/** One item of a collection, by id: `itemQuery(path, id)` types it. */
export interface ItemQuery<T = Resource> {
  service: ServiceName
  collection: string
  id: string
  params?: undefined
  key?: undefined
  fn?: undefined
  readonly [ITEM]?: T
}

/**
 * Any call, cached by its key (what TanStack Query calls a query): `callQuery(['maps', 'geocode',
 * q], ({ signal }) => maps(client).geocode(q, { signal }))`. Same key, one request; the signal
 * aborts when no one watches any more.
 */
export interface CallQuery<T = unknown> {
  key: readonly unknown[]
  fn: (context: { signal: AbortSignal }) => Promise<T>
  service?: undefined
  collection?: undefined
  id?: undefined
  params?: undefined
  readonly [ITEM]?: T
}

export type CacheQuery = ListQuery<unknown> | ItemQuery<unknown> | CallQuery<unknown>

/** Matches by prefix: every field given must match; `params` matches list entries whose params include these. */
export interface CacheFilter {
  /** Call queries whose key starts with this one (`['maps']` matches every maps call). */
  key?: readonly unknown[]
  service?: ServiceName
  collection?: string
  params?: ListParams
  id?: string
}

// ---- Snapshots ---------------------------------------------------------------

export type CacheStatus = 'pending' | 'success' | 'error'

export interface Snapshot<D> {
  /** 'error' keeps the last good `data`; 'pending' means no data yet. */
  status: CacheStatus
  data: D | undefined
  /**
   * Why the last fetch failed: the client's error, or what a call query's own `fn` threw as a
   * `TandemError` `query_failed` (the thrown value its `cause`).
   */
  error: TandemError | null
  isFetching: boolean
  isStale: boolean
  /** When `data` was last fetched (ms since epoch), 0 if never. */
  dataUpdatedAt: number
  /**
   * Why a live list (`live: true`, `bindLiveResources`) cannot stay live: its channel or the
   * connection failed (a token without the scope is `forbidden`). `data` is then only as fresh as
   * its last fetch. null while live, and for entries nothing binds.
   */
  liveError: TandemError | null
}

export interface ListData<T> {
  pages: Page<T>[]
}

export interface ListSnapshot<T = Resource> extends Snapshot<ListData<T>> {
  /** Every loaded page's items, in order; the same array until `data` changes. */
  items: T[]
  hasNextPage: boolean
  isFetchingNextPage: boolean
}

/** `data` is the item; `undefined` after a `deleted` event. */
export type ItemSnapshot<T = Resource> = Snapshot<T>

// ---- Options -----------------------------------------------------------------

export interface WatchOptions {
  /**
   * Data younger than this (ms) is fresh: mounting, focus and reconnect do not refetch it.
   * @default 0
   */
  staleTime?: number
  /**
   * How long (ms) an entry without subscribers is kept. Where there is no `window`, entries are kept until `clear()`.
   * @default 300_000
   */
  gcTime?: number
  /**
   * Refetch stale data when the page regains focus.
   * @default true
   */
  refetchOnFocus?: boolean
  /**
   * Refetch stale data when the network comes back.
   * @default true
   */
  refetchOnReconnect?: boolean
  /**
   * Refetch every `ms` while subscribed (whether stale or not); `false` for never.
   * @default false
   */
  refetchInterval?: number | false
}

export interface CacheOptions extends WatchOptions {
  /**
   * Fires when the app regains focus.
   * @default `visibilitychange`/`focus`, attached on first subscribe
   */
  focusManager?: Trigger
  /**
   * Fires on reconnect.
   * @default `online`/`offline`, attached on first subscribe
   */
  onlineManager?: OnlineManager
}

// ---- Store -------------------------------------------------------------------

/** One cache entry, shaped for `useSyncExternalStore(entry.subscribe, entry.getSnapshot)`. */
export interface ResourceEntry<S> {
  readonly query: CacheQuery
  /** Fetches on subscribe when stale. Does not call `listener` at once. */
  subscribe: (listener: () => void, options?: WatchOptions) => Unsubscribe
  /** The same object until the entry changes. */
  getSnapshot: () => S
  /** Refetch every loaded page (cancels a fetch in flight). */
  refetch: () => Promise<void>
  /** Append the page after the last one; no-op without a next page or for items. */
  fetchNextPage: () => Promise<void>
}

export type CacheEvent<T = Resource> = { type: 'created' | 'updated'; item: T } | { type: 'deleted'; id: string }

export type Updater<D> = D | ((previous: D | undefined) => D)

/** `cache.get` options: what a hook's `initialData` becomes. */
export interface GetOptions<D> {
  /**
   * Seeds an entry that has no data and no subscribers yet (so no other component re-renders
   * mid-render). It counts as fetched at `initialDataUpdatedAt` (default: now).
   */
  initialData?: D
  initialDataUpdatedAt?: number
}

export interface DehydratedState {
  entries: { query: CacheQuery; data: unknown; dataUpdatedAt: number }[]
  /**
   * Where each collection's channel stood just before these entries were fetched (`prefetch` of
   * @tandem/next/server). `hydrate` ignores it; `<TandemHydrate>` of @tandem/next hands it to the
   * entries, whose live binding then resumes the channel from there instead of refetching.
   */
  live?: { channel: string; position: { epoch: string; offset: number } }[]
}

export interface HydrateOptions {
  /**
   * Hydrated data counts as fresh this long (ms) at least, whatever `staleTime` says.
   * @default CACHE_DEFAULTS.hydrateFreshMs (2 s): the hydrating render does not refetch it
   */
  freshMs?: number
}

/** What `hydrate` did: how many entries it put in, and the ones it refused (data that does not fit its query). */
export interface HydrateResult {
  entries: number
  /** `why` is a path into the data and what is wrong there (`$.pages: not an array`). */
  refused: { query: CacheQuery; why: string }[]
}

/** An entry changed (`cache.onChange`): its query and its state now. */
export interface CacheChange {
  query: CacheQuery
  status: CacheStatus
  data: unknown
  dataUpdatedAt: number
}

/** One entry as `cache.inspect()` shows it (devtools): its state now, and what a tool may do with it. */
export interface CacheEntryInfo {
  /** The entry's key as a stable string (what the cache hashes the query to). */
  hash: string
  query: CacheQuery
  status: CacheStatus
  isFetching: boolean
  isStale: boolean
  /** Subscribers now (components, watchers, live bindings). */
  observers: number
  dataUpdatedAt: number
  error: TandemError | null
  liveError: TandemError | null
  /** Refetch every loaded page now (as `entry.refetch()`). */
  refetch(): Promise<void>
  /** This entry only: mark it stale, refetch it if it has subscribers. */
  invalidate(): Promise<void>
  /** Drop its data: an entry nobody watches is removed; a watched one starts over (pending, then fetched). */
  remove(): void
}

export interface ResourceCache {
  get<T = Resource>(query: ListQuery<T>, options?: GetOptions<ListData<T>>): ResourceEntry<ListSnapshot<T>>
  get<T = Resource>(query: ItemQuery<T>, options?: GetOptions<T>): ResourceEntry<ItemSnapshot<T>>
  get<T>(query: CallQuery<T>, options?: GetOptions<T>): ResourceEntry<ItemSnapshot<T>>
  /** Subscribe with a listener that gets the snapshot: now, then on every change. */
  watch<T = Resource>(query: ListQuery<T>, listener: (s: ListSnapshot<T>) => void, options?: WatchOptions): Unsubscribe
  watch<T = Resource>(query: ItemQuery<T>, listener: (s: ItemSnapshot<T>) => void, options?: WatchOptions): Unsubscribe
  watch<T>(query: CallQuery<T>, listener: (s: ItemSnapshot<T>) => void, options?: WatchOptions): Unsubscribe
  /** Fetch unless fresh; rejects with the fetch error. */
  fetch<T = Resource>(query: ListQuery<T>, options?: { staleTime?: number }): Promise<ListSnapshot<T>>
  fetch<T = Resource>(query: ItemQuery<T>, options?: { staleTime?: number }): Promise<ItemSnapshot<T>>
  fetch<T>(query: CallQuery<T>, options?: { staleTime?: number }): Promise<ItemSnapshot<T>>
  /** `fetch` that never rejects (SSR, hover). */
  prefetch(query: CacheQuery, options?: { staleTime?: number }): Promise<void>
  /** Mark matching entries stale; refetch those with subscribers. */
  invalidate(filter?: CacheFilter): Promise<void>
  /** Replace an entry's data (optimistic update). `rollback()` restores it, or refetches if it changed since. */
  setData<T = Resource>(query: ListQuery<T>, updater: Updater<ListData<T>>): () => void
  setData<T = Resource>(query: ItemQuery<T>, updater: Updater<T>): () => void
  setData<T>(query: CallQuery<T>, updater: Updater<T>): () => void
  /** Patch matching entries from a realtime event, without a request. */
  applyEvent<T = Resource>(filter: CacheFilter, event: CacheEvent<T>): void
  /** Why a live binding cannot keep an entry live (its snapshot's `liveError`); null once it is live again. */
  setLiveError(query: CacheQuery, error: TandemError | null): void
  dehydrate(): DehydratedState
  /**
   * Puts dehydrated entries in (never over newer data). An entry whose data does not fit its query
   * (a list that is not `{ pages }` of the contract's pages, an item that is not an object) is
   * refused, so no reader of the cache can meet it.
   */
  hydrate(state: DehydratedState, options?: HydrateOptions): HydrateResult
  /**
   * Every entry now, in insertion order: a copy, read when asked (a tool polls it; nothing is kept
   * for it). A change of an entry's data or status reaches `onChange`; a change of its observer
   * count alone reaches no listener, so a panel that shows it reads `inspect()` again (on a tick).
   */
  inspect(): CacheEntryInfo[]
  /** Every change of every entry, as it happens (what the saved cache and tools build on). */
  onChange(listener: (change: CacheChange) => void): Unsubscribe
  /** Drop every entry and timer (logout, end of a script). */
  clear(): void
}
