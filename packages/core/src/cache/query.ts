import type { CollectionPath, ItemOf, OneOf, ParamsOf } from '@tandem/contract'
import type { ServiceName } from '../types.js'
import type { CallQuery, ItemQuery, ListQuery } from './types.js'

// Cache queries typed by the contract's collection registry: `listQuery('support/conversations',
// { status: 'active' })` is a `ListQuery<Conversation>`, and `client.cache.get(it)` knows it.

/** `'support/conversations'` → `{ service, collection }`. */
export function parsePath(path: CollectionPath): { service: ServiceName; collection: string } {
  const i = path.indexOf('/')
  return { service: path.slice(0, i) as ServiceName, collection: path.slice(i + 1) }
}

/** A list of `path` for `params` (the contract's list parameters). */
export function listQuery<P extends CollectionPath>(path: P, params?: ParamsOf<P>): ListQuery<ItemOf<P>> {
  return { ...parsePath(path), params }
}

/** One item of `path`, by id. */
export function itemQuery<P extends CollectionPath>(path: P, id: string): ItemQuery<OneOf<P>> {
  return { ...parsePath(path), id }
}

/**
 * Any call as a cache query (TanStack's `queryKey` + `queryFn`): one request per key however many
 * watch it, its signal aborted when none does any more.
 *
 * @example
 * ```ts
 * const q = callQuery(['maps', 'geocode', text], ({ signal }) => maps(client).geocode({ query: text }, { signal }))
 * const { data } = await getCache(client).fetch(q)
 * ```
 */
export function callQuery<T>(
  key: readonly unknown[],
  fn: (context: { signal: AbortSignal }) => Promise<T>,
): CallQuery<T> {
  return { key, fn }
}
