import { cacheOptionsOf, type Client } from '../base-client.js'
import { collection } from '../collection.js'
import { createResourceCache } from './resource-cache.js'
import type { ServiceName } from '../types.js'
import type { CacheOptions, ResourceCache } from './types.js'

// The cache is created on first use, by @tandem/react's provider or by the app: a client that
// never lists anything through it never ships it.

const caches = new WeakMap<object, ResourceCache>()
/** A composed client (`createClient` of `@tandem/core`) shares its modular client's cache. */
const sameAs = new WeakMap<object, Client>()

/**
 * The client's resource cache, created on the first call (with the client's `cache` options,
 * then `options`); every later call returns the same one.
 */
export function getCache(client: Client, options?: CacheOptions): ResourceCache {
  const owner = sameAs.get(client) ?? client
  let cache = caches.get(owner)
  if (!cache) {
    // The cache reaches collections by the names in its queries, typed or not.
    const byName = (service: ServiceName, name: string) => collection(owner, service, name as 'resources')
    cache = createResourceCache({ ...cacheOptionsOf.get(owner), ...options, collection: byName })
    caches.set(owner, cache)
  }
  return cache
}

/** `getCache(alias)` is `getCache(owner)`. */
export function shareCache(alias: object, owner: Client): void {
  sameAs.set(alias, owner)
}
