import { itemQuery, type CollectionPath, type ItemSnapshot, type OneOf, type Resource } from '@tandem/core'
import { useEntry, type EntryOptions, type EntryResult } from './use-entry.js'
import { useLive } from './use-live.js'

export interface UseResourceOptions<T = Resource, R = T> extends EntryOptions<T, R> {
  /** Shown (as fetched now) until the first fetch. */
  initialData?: T
  /**
   * Keep the item current from its collection's realtime channel (see `useResources`).
   * @default false
   */
  live?: boolean
}

/** `data` is `undefined` after the item was deleted (a live `deleted` event). */
export type ResourceResult<T = Resource, R = T> = Omit<EntryResult<ItemSnapshot<T>, R>, 'fetchNextPage'>

/**
 * One cached item of a collection, by id.
 *
 * @example
 * ```ts
 * const { data: conversation, status } = useResource('support/conversations', id, { live: true })
 * ```
 */
export function useResource<P extends CollectionPath, R = OneOf<P>>(
  path: P,
  id: string,
  options: UseResourceOptions<OneOf<P>, R> = {},
): ResourceResult<OneOf<P>, R> {
  const { live = false, ...rest } = options
  const { result, entry } = useEntry<ItemSnapshot<OneOf<P>>, R>(itemQuery(path, id), rest)
  useLive(entry, live && rest.enabled !== false)
  return result
}
