import { replaceEqualDeep, type CacheQuery, type ListData, type ListQuery, type ResourceEntry, type Snapshot, type WatchOptions } from '@tandem/core'
import { useCallback, useRef, useSyncExternalStore } from 'react'
import { DEFAULTS } from './defaults.js'
import { useTandem } from './use-tandem.js'

/** The options `useResources` and `useResource` share. */
export interface EntryOptions<D, R> extends WatchOptions {
  /** `false`: neither fetch nor subscribe (a dependent query); cached data still shows. Default `true`. */
  enabled?: boolean
  /** Suspend while there is no data, and throw a failed first fetch to the nearest error boundary. */
  suspense?: boolean
  /** Derives `data`. The result is structurally shared, so an equal result keeps its reference. */
  select?: (data: D) => R
  /** While a new key's first fetch runs, show the previous key's data (`isPlaceholderData: true`). */
  keepPreviousData?: boolean
}

export type EntryResult<S extends Snapshot<unknown>, R> = Omit<S, 'data'> & {
  data: R | undefined
  /** `data` is the previous key's (`keepPreviousData`), shown while this key loads. */
  isPlaceholderData: boolean
  /** Refetch now, whether stale or not. */
  refetch(): Promise<void>
}

const none = () => {}

/** The binding: `useSyncExternalStore` over one cache entry. Fetching, dedupe and freshness live in the cache. */
export function useEntry<S extends Snapshot<unknown>, R>(
  query: CacheQuery, options: EntryOptions<never, R> & { initialData?: unknown },
): { result: EntryResult<S, R>; entry: ResourceEntry<S> } {
  const { client } = useTandem()
  const { enabled = true, suspense, select, keepPreviousData, initialData, staleTime, gcTime, refetchOnFocus, refetchOnReconnect, refetchInterval } = options
  // A Map lookup; calling it every render revives an entry that was garbage-collected meanwhile.
  const entry = client.cache.get(query as ListQuery, { initialData: initialData as ListData<unknown> | undefined }) as unknown as ResourceEntry<S>
  const watch: WatchOptions = {
    staleTime: suspense ? Math.max(staleTime ?? 0, DEFAULTS.suspenseStaleTime) : staleTime,
    gcTime, refetchOnFocus, refetchOnReconnect, refetchInterval,
  }
  const key = JSON.stringify(watch)
  // Resubscribe when the entry or an option's value changes, not for each render's new object.
  const subscribe = useCallback((onChange: () => void) => (enabled ? entry.subscribe(onChange, watch) : none), [entry, enabled, key])
  const snap = useSyncExternalStore(subscribe, entry.getSnapshot, entry.getSnapshot)

  const previous = useRef<S | undefined>(undefined)
  const selected = useRef<{ input?: unknown; select?: unknown; output?: R }>({})
  let shown = snap
  if (snap.data !== undefined) previous.current = snap
  // Only the data this component last showed: a late answer for old params has no way in.
  else if (keepPreviousData && snap.status === 'pending' && previous.current) shown = { ...previous.current, isFetching: snap.isFetching }

  if (suspense && enabled && shown.status !== 'success' && shown.data === undefined) {
    // React retries the render when the promise settles; `prefetch` joins the fetch in flight.
    throw shown.status === 'error' && !shown.isFetching ? shown.error : client.cache.prefetch(query)
  }

  let data = shown.data as R | undefined
  if (select && data !== undefined) {
    const m = selected.current
    if (m.input !== data || m.select !== select) selected.current = { input: data, select, output: replaceEqualDeep(m.output, select(data as never)) }
    data = selected.current.output
  }
  return { result: { ...shown, data, isPlaceholderData: shown !== snap, refetch: entry.refetch }, entry }
}
