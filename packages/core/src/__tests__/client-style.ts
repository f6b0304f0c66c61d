// Every core and react test runs twice (vite.config.ts): with `createClient` of @tandem/core
// (every service on the client), and with TANDEM_CLIENT_STYLE=modular, where the same surface is
// built from the modular entries: @tandem/core/client, /maps, /support, /realtime-rest, /cache.
import type { ClientOptions, TandemClient } from '../client.js'
import { createClient as createFull } from '../client.js'
import { getCache } from '../entries/cache.js'
import { collection, createBaseClient, logTo, type Client } from '../entries/client.js'
import { maps } from '../entries/maps.js'
import { realtimeRest } from '../entries/realtime-rest.js'
import { support } from '../entries/support.js'

export const MODULAR = process.env.TANDEM_CLIENT_STYLE === 'modular'

/** The modular client itself (what an app that cares about size holds). */
export function createClientOfStyle(options: ClientOptions): { client: TandemClient; base: Client } {
  if (!MODULAR) {
    const client = createFull(options)
    return { client, base: client }
  }
  // A modular app passes its console-shaped logger as logTo(logger).
  const { logger } = options
  const base = createBaseClient(
    logger && typeof logger !== 'function' ? { ...options, logger: logTo(logger) } : options,
  )
  const client = {
    ...base,
    collection: ((service: 'support', name: 'resources') =>
      collection(base, service, name)) as TandemClient['collection'],
    maps: maps(base),
    support: support(base),
    realtime: realtimeRest(base),
    cache: getCache(base),
  }
  return { client, base }
}
