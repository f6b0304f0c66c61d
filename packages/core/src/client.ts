import {
  createBaseClient,
  type CacheSlot,
  type Client,
  type ClientOptions,
  type ServiceClient,
  type TypedCollection,
} from './base-client.js'
import { getCache } from './cache/get-cache.js'
import type { ResourceCache } from './cache/types.js'
import { collection, type PathOf } from './collection.js'
import { logTo } from './logger.js'
import type { CollectionName } from '@tandem/contract'
import type { ServiceName } from './types.js'
import { maps, type MapsService } from './services/maps.js'
import { realtimeRest, type RealtimeService } from './services/realtime.js'
import { support, type SupportService } from './services/support.js'

// Everything on one object, for those who want it: the modular client with every service and
// the cache attached. The same functions as the modular entries, composed.

export interface TandemClient extends Client {
  /**
   * A collection of the contract's registry, typed from it: `client.collection('support',
   * 'conversations')` lists `Conversation`s with the contract's filters. (On a modular client:
   * `collection(client, service, name)`.)
   */
  collection<S extends ServiceName, N extends CollectionName<S>>(service: S, name: N): TypedCollection<PathOf<S, N>>
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
  // Deprecated, until the next minor: a console-shaped logger is wrapped here (the rule is `logTo(console)`).
  const { logger } = options
  return withServices(
    createBaseClient(logger && typeof logger !== 'function' ? { ...options, logger: logTo(logger) } : options),
  )
}

/** A modular client with every service and the cache attached (what `createClient` returns); it shares the client's `cacheSlot`. */
export function withServices(client: Client): TandemClient {
  return Object.defineProperties(
    {
      ...client,
      collection: <S extends ServiceName, N extends CollectionName<S>>(service: S, name: N) =>
        collection(client, service, name),
      maps: maps(client),
      support: support(client),
      realtime: realtimeRest(client),
    },
    { cache: { get: () => getCache(client), enumerable: true } },
  ) as TandemClient
}

export type { CacheSlot, Client, ClientOptions, ServiceClient, TypedCollection }
