import type { Unsubscribe } from '@tandem/core'
import { LEASE_RELEASE_MS } from './defaults.js'
import type { Realtime } from './realtime.js'

/** Reference-counted holds on keyed things, each closed `delayMs` after its last holder lets go. */
export interface Pool {
  /** Holds `key`, opening it with `open` on the first hold; the returned function lets go (once). */
  acquire(key: string, open: () => Unsubscribe): Unsubscribe
  /** Keys open: held, or waiting out their release delay (each of those has one timer). */
  readonly size: number
}

export function createPool(delayMs: number = LEASE_RELEASE_MS): Pool {
  const held = new Map<string, { count: number; close: Unsubscribe; timer?: ReturnType<typeof setTimeout> }>()
  return {
    acquire(key, open) {
      const h = held.get(key) ?? { count: 0, close: open() }
      held.set(key, h)
      clearTimeout(h.timer) // taken again within the delay: nothing was closed, nothing is reopened
      h.timer = undefined
      h.count++
      let done = false
      return () => {
        if (done) return
        done = true
        if (--h.count > 0) return
        h.timer = setTimeout(() => {
          held.delete(key)
          h.close()
        }, delayMs)
      }
    },
    get size() {
      return held.size
    },
  }
}

const channelPools = new WeakMap<Realtime, Pool>()
const none = () => {}

function channelPool(rt: Realtime): Pool {
  let pool = channelPools.get(rt)
  if (!pool) channelPools.set(rt, (pool = createPool()))
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
