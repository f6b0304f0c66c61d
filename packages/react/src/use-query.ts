import { callQuery, type ItemSnapshot, type TandemClient } from '@tandem/core'
import { useEntry, type EntryOptions, type EntryResult } from './use-entry.js'
import { useTandem } from './use-tandem.js'

export type UseQueryOptions<T, R = T> = EntryOptions<T, R>

export type QueryResult<T, R = T> = Omit<EntryResult<ItemSnapshot<T>, R>, 'fetchNextPage'>

/**
 * Any typed call as a cached query, as a TanStack Query user expects: one request per key
 * however many components ask, the signal aborted when the key changes or the last one unmounts,
 * `keepPreviousData` to show the previous answer while the next loads, Suspense, `select`,
 * `staleTime`, `refetchInterval`, `enabled`. Errors are the client's `TandemError`s.
 *
 * The key must name everything the call depends on: the function of the latest render is the
 * one called.
 *
 * @example
 * ```tsx
 * const places = useQuery(['maps', 'geocode', text], (client, { signal }) =>
 *   maps(client).geocode({ query: text }, { signal }), { enabled: text.length > 2, keepPreviousData: true })
 * ```
 */
export function useQuery<T, R = T>(
  key: readonly unknown[],
  fn: (client: TandemClient, context: { signal: AbortSignal }) => Promise<T>,
  options: UseQueryOptions<T, R> = {},
): QueryResult<T, R> {
  const { client } = useTandem()
  return useEntry<ItemSnapshot<T>, R>(
    callQuery(key, (context) => fn(client, context)),
    options,
  ).result
}
