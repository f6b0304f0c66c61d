import {
  createEntryObserver,
  type CacheQuery,
  type ListData,
  type ListQuery,
  type ObserveOptions,
  type ObserverResult,
  type ResourceEntry,
  type Snapshot,
} from '@tandem/core'
import { useEffect, useState, useSyncExternalStore } from 'react'
import { DEFAULTS } from './defaults.js'
import { useTandem } from './use-tandem.js'

/** The options `useResources` and `useResource` share. */
export interface EntryOptions<D, R> extends ObserveOptions<D, R> {
  /**
   * Suspend while there is no data, and throw a failed first fetch to the nearest error boundary.
   * @default false
   */
  suspense?: boolean
}

export type EntryResult<S extends Snapshot<unknown>, R> = ObserverResult<S, R>

/**
 * The binding: `useSyncExternalStore` over a core observer of one cache entry (as TanStack's
 * `useBaseQuery`). Fetching, dedupe, freshness, `select`, placeholders and render tracking live in core.
 */
export function useEntry<S extends Snapshot<unknown>, R>(
  query: CacheQuery,
  options: EntryOptions<never, R> & { initialData?: unknown },
): { result: EntryResult<S, R>; entry: ResourceEntry<S> } {
  const { cache } = useTandem()
  const { suspense, initialData, ...rest } = options
  // A Map lookup; calling it every render revives an entry that was garbage-collected meanwhile.
  const entry = cache.get(query as ListQuery, {
    initialData: initialData as ListData<unknown> | undefined,
  }) as unknown as ResourceEntry<S>
  const observed: ObserveOptions<never, R> = suspense
    ? { ...rest, staleTime: Math.max(rest.staleTime ?? 0, DEFAULTS.suspenseStaleTime) }
    : rest
  const [observer] = useState(() => createEntryObserver<S, R>(entry, observed))
  const result = observer.getOptimisticResult(entry, observed)
  useSyncExternalStore(observer.subscribe, observer.getCurrentResult, observer.getCurrentResult)
  // Every commit: a no-op unless the entry or an option's value changed.
  useEffect(() => observer.setOptions(entry, observed))

  if (suspense && rest.enabled !== false && result.status !== 'success' && result.data === undefined) {
    if (result.status === 'error' && !result.isFetching && result.error) throw result.error
    // React retries the render when the promise settles; `prefetch` joins the fetch in flight.
    throw cache.prefetch(query)
  }
  return { result: observer.trackResult(result), entry }
}
