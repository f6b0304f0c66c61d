// The one set of waits for every package's tests (packages/*/src/__tests__ and test/ import it
// from here): bounded waits on conditions; no sleep decides a result, every wait has a deadline.

import { loadFactor } from './load-factor.js'

// The timers as they were when this module loaded: a test that wraps the globals to count
// timers (leaks.test.ts) does not count the waits' own.
const { setTimeout, clearTimeout, setInterval, clearInterval } = globalThis

/**
 * How many times slower than a quiet machine this run may go: the one load factor
 * (test/utils/load-factor.ts), read from the machine's load when the run starts, or `TANDEM_SLOW`.
 * It widens the scheduling slack a test adds to a time it checks and the waits' default deadlines,
 * never the time itself: each scaled bound stays below what the wrong behaviour would take.
 */
export const LOAD_FACTOR = loadFactor()

/** `ms` of scheduling slack, widened by the load factor. */
export const slack = (ms: number): number => Math.round(ms * LOAD_FACTOR)

/** The deadline of a wait that names none: 5 s on a quiet machine. */
const DEFAULT_WAIT_MS = slack(5_000)

/**
 * Resolves once `check()` holds. It is re-checked on every event of `on` (when given) and at
 * least every `pollMs`; rejects after `timeoutMs` with `what` (and the seed line) in the message.
 */
export function waitUntil(
  check: () => boolean,
  o: { timeoutMs?: number; what?: string; pollMs?: number; on?: (cb: () => void) => () => void } = {},
): Promise<void> {
  const { timeoutMs = DEFAULT_WAIT_MS, what = 'condition', pollMs = 5 } = o
  return new Promise((resolve, reject) => {
    let done = false
    const finish = (err?: Error) => {
      if (done) return
      done = true
      clearTimeout(deadline)
      clearInterval(poll)
      off?.()
      if (err) reject(err)
      else resolve()
    }
    const test = () => {
      if (done) return
      try {
        if (check()) finish()
      } catch (err) {
        finish(err as Error)
      }
    }
    const deadline = setTimeout(
      () => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${String(what)}`)),
      timeoutMs,
    )
    const poll = setInterval(test, pollMs)
    const off = o.on?.(test)
    test()
  })
}

/** `waitUntil` for a condition with no event of its own, said positionally: re-checked every 5 ms. */
export const poll = (check: () => boolean, what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<void> =>
  waitUntil(check, { what, timeoutMs })

/**
 * Resolves once `check()` holds, re-checked on every event of `on` only (no polling: for stores
 * that notify); rejects after `timeoutMs`.
 */
export function until(
  on: (cb: () => void) => () => void,
  check: () => boolean,
  timeoutMs = DEFAULT_WAIT_MS,
  what = 'condition',
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check()) return resolve()
    const timer = setTimeout(() => {
      off()
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`))
    }, timeoutMs)
    const off = on(() => {
      if (!check()) return
      clearTimeout(timer)
      off()
      resolve()
    })
  })
}

/** A promise with a deadline: rejects with `what` when `promise` takes longer than `timeoutMs`. */
export function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms: ${what}`)), timeoutMs)
    promise.then(
      (v) => {
        clearTimeout(timer)
        resolve(v)
      },
      (e) => {
        clearTimeout(timer)
        reject(e)
      },
    )
  })
}

/** Yields one macrotask (lets timers and I/O run); not a sleep: nothing depends on its length. */
export const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * Lets `ms` pass: the window in which something must NOT happen (a retry, a reconnect). Never a
 * wait for a result; that is `until`, `waitUntil` or `within`, which end as soon as it is there.
 */
export const during = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
