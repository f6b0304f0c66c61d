import type { ItemSnapshot, Resource } from '@tandem/core'
import { useMemo } from 'react'
import { useEntry, type EntryOptions, type EntryResult } from './use-entry.js'
import { useLive } from './use-live.js'
import { parsePath, type CollectionPath } from './use-resources.js'

export interface UseResourceOptions<T = Resource, R = T> extends EntryOptions<T, R> {
  /** Shown (as fetched now) until the first fetch. */
  initialData?: T
  /** Keep the item current from its collection's realtime channel (see `useResources`). */
  live?: boolean
}

/** `data` is `undefined` after the item was deleted (a live `deleted` event). */
export type ResourceResult<T = Resource, R = T> = EntryResult<ItemSnapshot<T>, R>

/** One cached item of a collection, by id. */
export function useResource<T = Resource, R = T>(
  path: CollectionPath,
  id: string,
  options: UseResourceOptions<T, R> = {},
): ResourceResult<T, R> {
  const { live = false, ...rest } = options
  const query = useMemo(() => ({ ...parsePath(path), id }), [path, id])
  useLive(query, live && rest.enabled !== false)
  const { result, track } = useEntry<ItemSnapshot<T>, R>(query, rest as EntryOptions<never, R>)
  return track(result)
}
