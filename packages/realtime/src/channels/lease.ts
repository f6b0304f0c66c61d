import type { Unsubscribe } from '@tandem/core'
import { createPool } from '../core.js'
import { LEASE_RELEASE_MS } from '../defaults.js'
import { partsOf } from '../parts.js'
import type { Realtime } from '../realtime.js'

const none = () => {}

/**
 * Keeps `name` subscribed until the returned release, and `DEFAULTS.leaseReleaseMs` after it
 * unless leased again meanwhile. Listeners come and go on the channel as usual; the lease only
 * keeps the subscription (and its position) across them, so a remount is free.
 */
export function leaseChannel(rt: Realtime, name: string): Unsubscribe {
  const channel = rt.channel(name)
  const parts = partsOf(rt, 'leaseChannel')
  return (parts.leases ??= createPool(LEASE_RELEASE_MS)).acquire(name, () => channel.subscribe(none))
}

/** Channels held by leases, including those waiting out their release delay (tests, debugging). */
export function leasedChannels(rt: Realtime): number {
  return partsOf(rt, 'leasedChannels').leases?.size ?? 0
}
