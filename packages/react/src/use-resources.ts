import {
  listQuery,
  type CollectionPath,
  type ItemOf,
  type ListData,
  type ListSnapshot,
  type Page,
  type ParamsOf,
  type Resource,
} from '@tandem/core'
import { useEntry, type EntryOptions, type EntryResult } from './use-entry.js'
import { useLive } from './use-live.js'

export type { CollectionPath }

export interface UseResourcesOptions<T = Resource, R = ListData<T>> extends EntryOptions<ListData<T>, R> {
  /** Shown (as fetched now) until the first fetch: a page from the server, e.g. `await collection.list()`. */
  initialData?: Page<T>
  /**
   * Keep the list current from the collection's realtime channel (`<service>:<collection>`):\nchanges patch it without a request, lost messages refetch it once. Needs `realtime` on the provider.
   * @default false
   */
  live?: boolean
}

export type ResourcesResult<T = Resource, R = ListData<T>> = EntryResult<ListSnapshot<T>, R>

/**
 * A cached, deduplicated, revalidating list: `data` is `{ pages }` (or what `select` makes of it),
 * `items` every loaded page's items, in order.
 *
 * @example
 * ```ts
 * const { items, status, fetchNextPage, hasNextPage } = useResources('support/conversations', { limit: 25 }, { live: true })
 * ```
 */
export function useResources<P extends CollectionPath, R = ListData<ItemOf<P>>>(
  path: P,
  params?: ParamsOf<P>,
  options: UseResourcesOptions<ItemOf<P>, R> = {},
): ResourcesResult<ItemOf<P>, R> {
  const { initialData, live = false, ...rest } = options
  // The cache keys entries by content: a new `params` object each render finds the same entry.
  const { result, entry } = useEntry<ListSnapshot<ItemOf<P>>, R>(listQuery(path, params), {
    ...rest,
    initialData: initialData && { pages: [initialData] },
  })
  useLive(entry, live && rest.enabled !== false)
  return result
}
