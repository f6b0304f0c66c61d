import { getCache, shareCache } from './cache/get-cache.js'
import type { ResourceCache } from './cache/types.js'
import {
  createClient as createBaseClient,
  type Client,
  type ClientOptions,
  type ServiceClient,
  type TypedCollection,
} from './base-client.js'
import { maps, type MapsService } from './services/maps.js'
import { realtimeRest, type RealtimeService } from './services/realtime.js'
import { support, type SupportService } from './services/support.js'

// Everything on one object, for those who want it: the modular client with every service and
// the cache attached. The same functions as the modular entries, composed.

export interface TandemClient extends Client {
  readonly maps: ServiceClient & MapsService
  readonly support: ServiceClient & SupportService
  readonly realtime: ServiceClient & RealtimeService
  /** Cached, deduplicated, revalidating lists and items (docs/cache.md); created on first use. */
  readonly cache: ResourceCache
}

/**
 * Every service on one client (`@tandem/core`). For a smaller bundle, compose only what you
 * use from `@tandem/core/client`, `/maps`, `/support`, `/realtime-rest` and `/cache`.
 *
 * @example
 * ```ts
 * const tandem = createClient({ auth: { url: '/api/tandem-token' } })
 * const { results } = await tandem.maps.geocode({ query: 'Porto, Portugal' })
 * for await (const c of tandem.support.conversations.list({ status: 'active' })) console.log(c.subject)
 * ```
 */
export function createClient(options: ClientOptions): TandemClient {
  return withServices(createBaseClient(options))
}

/** A modular client with every service and the cache attached (what `createClient` returns). */
export function withServices(client: Client): TandemClient {
  const full = Object.defineProperties(
    { ...client, maps: maps(client), support: support(client), realtime: realtimeRest(client) },
    { cache: { get: () => getCache(client), enumerable: true } },
  ) as TandemClient
  shareCache(full, client) // getCache(full) is client.cache
  return full
}

export type { Client, ClientOptions, ServiceClient, TypedCollection }
