import { onAbort } from './abort.js'
import { MAX_TIMER_MS } from './timers.js'

export interface AttemptSignal {
  signal: AbortSignal
  timedOut: () => boolean
  dispose: () => void
}

const TIMED_OUT = new Error('timeout')

/** Makes attempt signals; one per client, so timeouts are shared within it only. */
export type AttemptSignals = (caller: AbortSignal | undefined, timeoutMs: number) => AttemptSignal

/**
 * One attempt's own signal: the caller's combined with an exact timeout. ofetch 1.5 ignores
 * `timeout` when a `signal` is passed, so we combine them ourselves (and without `AbortSignal.any`,
 * which older Safari lacks). The token provider uses this alone (a token fetch: rare, and retried on
 * that timeout), so an app without REST calls does not carry the shared timeouts below.
 */
export function attemptSignal(caller: AbortSignal | undefined, timeoutMs: number): AttemptSignal {
  const controller = new AbortController()
  let timedOut = false
  const abort = () => controller.abort(caller?.reason)
  // Aborted while the token or a rate-limit slot was awaited: the event has fired already.
  if (caller?.aborted) abort()
  const off = onAbort(caller, abort)
  const timer =
    timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(
          () => {
            timedOut = true
            controller.abort(TIMED_OUT)
          },
          Math.min(timeoutMs, MAX_TIMER_MS),
        )
      : undefined
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer)
      off()
    },
  }
}

/**
 * A client's attempt signals. Without a caller's signal, attempts that end in the same slice of time
 * (2 % of the timeout, at least 50 ms) share one signal and one timer: an AbortController and a timer
 * per request cost a tenth of a fast request's throughput. A slice lives until its timer fires, which
 * never keeps a Node process alive (`unref`). With a caller's signal, each attempt has its own.
 */
export function createAttemptSignals(): AttemptSignals {
  // By the time a slice ends: its attempt signal (one object, handed to each of its attempts) and
  // how many have it. A number key and no object per attempt: this runs once per request.
  const shared = new Map<number, { guard: AttemptSignal; uses: number }>()

  function sharedTimeout(timeoutMs: number): AttemptSignal {
    const slice = Math.max(50, Math.round(timeoutMs / 50))
    const at = Math.ceil((Date.now() + timeoutMs) / slice) * slice
    let entry = shared.get(at)
    // fetch adds a listener per request to the signal it is given, dropped only when that request
    // is garbage-collected, and walks the list on each add: a signal shared by hundreds of requests
    // costs each one more than its own would. Every 16 attempts take a new one.
    if (!entry || entry.uses === 16) {
      const controller = new AbortController()
      const { signal } = controller
      const made = { guard: { signal, timedOut: () => signal.aborted, dispose: () => {} }, uses: 0 }
      const timer = setTimeout(
        () => {
          if (shared.get(at) === made) shared.delete(at)
          controller.abort(TIMED_OUT)
        },
        Math.min(at - Date.now(), MAX_TIMER_MS),
      ) as { unref?: () => void }
      timer.unref?.()
      shared.set(at, (entry = made))
    }
    entry.uses++
    return entry.guard
  }

  return (caller, timeoutMs) =>
    !caller && timeoutMs > 0 && Number.isFinite(timeoutMs) ? sharedTimeout(timeoutMs) : attemptSignal(caller, timeoutMs)
}
