import { abortError, onAbort } from './abort.js'

// Timers that are safe with any delay a peer supplies.

/** Past 2^31 ms, setTimeout fires at once: every long timer is clamped to this. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * A delay a peer supplied (`retryAfterMs`, `Retry-After`, `expiresIn`, a heartbeat), made safe.
 * Infinity, NaN, a negative value or not a number at all: `undefined`, meaning "use our own
 * backoff". Anything else lies within [floorMs, capMs], and never past `MAX_TIMER_MS`.
 */
export function clampDelay(value: unknown, floorMs: number, capMs: number): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined
  return Math.min(Math.max(value, floorMs), capMs, MAX_TIMER_MS)
}

/** setTimeout as a promise that an AbortSignal can cut short (with an `AbortError`). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal))
    const timer = setTimeout(
      () => {
        off()
        resolve()
      },
      Math.min(ms, MAX_TIMER_MS),
    )
    const off = onAbort(signal, () => {
      clearTimeout(timer)
      reject(abortError(signal!))
    })
  })
}
