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
}

export interface RateLimitStore {
  subscribe: (listener: () => void) => Unsubscribe
  /** The same object until the queue changes. */
  getSnapshot: () => RateLimitSnapshot
}

const IDLE: RateLimitSnapshot = Object.freeze({ queued: 0, waitMs: 0, until: 0 })

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
  let snapshot = IDLE
  return {
    subscribe(listener) {
      return client.on('rateLimit', (state) => {
        if (state.service !== service) return
        snapshot = state.queued
          ? { queued: state.queued, waitMs: state.waitMs, until: Date.now() + state.waitMs }
          : IDLE
        listener()
      })
    },
    getSnapshot: () => snapshot,
  }
}
