import { hashQuery } from './key.js'
import type { CacheQuery, DehydratedState, ResourceCache } from './types.js'

// A channel's position handed over with the data fetched just after it was read (`<TandemHydrate>`
// of @tandem/next, from a state's `live`), by entry hash: the live binding of that entry makes the
// channel start from it. Only `handOver`'s caller ships the writing side (@tandem/core/internal).
// Kept after use: any data that entry holds later is newer still, so resuming from it stays whole.

type Position = NonNullable<DehydratedState['live']>[number]['position']

// A WeakMap keyed by the app's cache, not a member of it: only an app that hands over ships it, and it goes with the cache.
export const handed = new WeakMap<ResourceCache, Map<string, Position>>()

/** `position` was read just before `query`'s data (now in `cache`) was fetched. */
export function handOver(cache: ResourceCache, query: CacheQuery, position: Position): void {
  if (!handed.has(cache)) handed.set(cache, new Map<string, Position>())
  handed.get(cache)!.set(hashQuery(query), position)
}
