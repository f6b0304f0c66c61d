import type { Client } from '../base-client.js'
import { collection } from '../collection.js'
import { createResourceCache } from './resource-cache.js'
import type { ServiceName } from '../types.js'
import type { CacheOptions, ResourceCache } from './types.js'

// The cache is created on first use, by @tandem/react's provider or by the app: a client that
// never lists anything through it never ships it. It lives in the client's `cacheSlot`.

/**
 * The client's resource cache, created on the first call (with the client's `cache` options,
 * then `options`); every later call returns the same one.
 */
export function getCache(client: Client, options?: CacheOptions): ResourceCache {
  const slot = client.cacheSlot
  // The cache reaches collections by the names in its queries, typed or not.
  const byName = (service: ServiceName, name: string) => collection(client, service, name as 'resources')
  return (slot.cache ??= createResourceCache({ ...slot.options, ...options, collection: byName }))
}
