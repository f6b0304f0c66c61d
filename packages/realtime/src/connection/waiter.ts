import { MAX_TIMER_MS } from '../core.js'

export interface Waiter {
  /** Resolves after `ms` (never, for Infinity) or as soon as `wake()` is called. */
  wait(ms: number): Promise<void>
  wake(): void
}

/** A sleep that can be cut short: `online`, `connect()` and `close()` must not wait out a backoff. */
export function createWaiter(): Waiter {
  let wake: (() => void) | undefined
  return {
    wait(ms) {
      wake?.()
      return new Promise<void>((resolve) => {
        const timer = Number.isFinite(ms) ? setTimeout(done, Math.min(ms, MAX_TIMER_MS)) : undefined
        function done() {
          clearTimeout(timer)
          if (wake === done) wake = undefined
          resolve()
        }
        wake = done
      })
    },
    wake: () => wake?.(),
  }
}
