import type { Unsubscribe } from '@tandem/core'
import type { Pool } from '@tandem/core/internal'
import { createPool } from './core.js'
import { LEASE_RELEASE_MS } from './defaults.js'
import type { Realtime } from './realtime.js'

const channelPools = new WeakMap<Realtime, Pool>()
const none = () => {}

function channelPool(rt: Realtime): Pool {
  let pool = channelPools.get(rt)
  if (!pool) channelPools.set(rt, (pool = createPool(LEASE_RELEASE_MS)))
  return pool
}

/**
 * Keeps `name` subscribed until the returned release, and `DEFAULTS.leaseReleaseMs` after it
 * unless leased again meanwhile. Listeners come and go on the channel as usual; the lease only
 * keeps the subscription (and its position) across them, so a remount is free.
 */
export function leaseChannel(rt: Realtime, name: string): Unsubscribe {
  const channel = rt.channel(name)
  return channelPool(rt).acquire(name, () => channel.subscribe(none))
}

/** Channels held by leases, including those waiting out their release delay (tests, debugging). */
export function leasedChannels(rt: Realtime): number {
  return channelPools.get(rt)?.size ?? 0
}
