import { getCache, type Client, type DehydratedState, type ItemQuery, type ListQuery } from '@tandem/core'
import { hashQuery } from '@tandem/core/internal'

/** What can be prefetched on a server: lists and items (a call's function cannot travel to the browser). */
export type PrefetchQuery = ListQuery<unknown> | ItemQuery<unknown>

/**
 * Fetches the queries into the client's cache (all at once; never rejects: a query that failed
 * is left out, and the browser fetches it) and returns their entries, the `state` for
 * `<TandemHydrate>`. Only these queries: a streamed boundary does not carry again what the
 * page's other boundaries prefetched with the same request's client.
 *
 * @example
 * ```tsx
 * const state = await prefetch(client, listQuery('support/conversations', { limit: 25 }))
 * return <TandemHydrate state={state}><Inbox /></TandemHydrate>
 * ```
 */
export async function prefetch(client: Client, ...queries: PrefetchQuery[]): Promise<DehydratedState> {
  const cache = getCache(client)
  await Promise.all(queries.map((query) => cache.prefetch(query)))
  const wanted = new Set(queries.map(hashQuery))
  return { entries: cache.dehydrate().entries.filter((entry) => wanted.has(hashQuery(entry.query))) }
}
