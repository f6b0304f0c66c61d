import type { RateLimitBucket } from '@tandem/contract'
import type { Client } from './base-client.js'
import type { ServiceName, Unsubscribe } from './types.js'

/** What an app shows while a service's requests wait for the rate limit: "busy, ~N s". */
export interface RateLimitSnapshot {
  /** Requests waiting for a slot. */
  queued: number
  /** How long the last of them waits, in ms, from when it joined (0: nothing waits). */
  waitMs: number
  /** When that wait ends (ms since the epoch; 0 when nothing waits): a countdown's target. */
  until: number
  /** Whose quota the bucket follows: `customer` (a customer token's own) or `app` (the app's plan). */
  bucket: RateLimitBucket
}

export interface RateLimitStore {
  subscribe: (listener: () => void) => Unsubscribe
  /** The same object until the queue changes. */
  getSnapshot: () => RateLimitSnapshot
}

const IDLE: Readonly<Record<RateLimitBucket, RateLimitSnapshot>> = Object.freeze({
  app: Object.freeze({ queued: 0, waitMs: 0, until: 0, bucket: 'app' }),
  customer: Object.freeze({ queued: 0, waitMs: 0, until: 0, bucket: 'customer' }),
})

/**
 * A store of one service's rate-limit queue, from the client's `rateLimit` events: for
 * `useSyncExternalStore` (`useRateLimit` in @tandem/react) or any UI.
 *
 * @example
 * ```ts
 * const busy = watchRateLimit(client, 'maps')
 * busy.subscribe(() => {
 *   const { queued, until } = busy.getSnapshot()
 *   status.textContent = queued ? `busy, ~${Math.ceil((until - Date.now()) / 1000)} s` : ''
 * })
 * ```
 */
export function watchRateLimit(client: Pick<Client, 'on'>, service: ServiceName): RateLimitStore {
  let snapshot = IDLE.app
  return {
    subscribe(listener) {
      return client.on('rateLimit', (state) => {
        if (state.service !== service) return
        const { queued, waitMs, bucket } = state
        snapshot = queued ? { queued, waitMs, until: Date.now() + waitMs, bucket } : IDLE[bucket]
        listener()
      })
    },
    getSnapshot: () => snapshot,
  }
}
