import { onAbort } from './abort.js'
import { MAX_TIMER_MS } from './timers.js'

export interface AttemptSignal {
  signal: AbortSignal
  timedOut: () => boolean
  dispose: () => void
}

const TIMED_OUT = new Error('timeout')

/** Makes attempt signals; one per client (or token provider), so timeouts are shared within it only. */
export type AttemptSignals = (caller: AbortSignal | undefined, timeoutMs: number) => AttemptSignal

/**
 * Attempt signals: the caller's signal combined with a timeout. ofetch 1.5 ignores `timeout`
 * when a `signal` is passed, so we combine them ourselves (and without `AbortSignal.any`, which
 * older Safari lacks). Without a caller's signal, attempts that end in the same slice of time (2 %
 * of the timeout, at least 50 ms) share one signal and one timer: an AbortController and a timer
 * per request cost a tenth of a fast request's throughput. A slice lives until its timer fires,
 * which never keeps a Node process alive (`unref`). `share: false` gives each attempt its own,
 * exact timeout (a token fetch: rare, and retried on that timeout).
 */
export function createAttemptSignals({ share = true } = {}): AttemptSignals {
  const shared = new Map<string, AbortSignal>()
  let given = 0

  function sharedTimeout(timeoutMs: number): AttemptSignal {
    const slice = Math.max(50, Math.round(timeoutMs / 50))
    const at = Math.ceil((Date.now() + timeoutMs) / slice) * slice
    // fetch adds a listener per request to the signal it is given, dropped only when that request
    // is garbage-collected, and walks the list on each add: a signal shared by hundreds of requests
    // costs each one more than its own would. Every 16 attempts take a new one.
    const key = `${at} ${Math.floor(given++ / 16)}`
    let signal = shared.get(key)
    if (!signal) {
      const controller = new AbortController()
      const timer = setTimeout(
        () => {
          shared.delete(key)
          controller.abort(TIMED_OUT)
        },
        Math.min(at - Date.now(), MAX_TIMER_MS),
      ) as { unref?: () => void }
      timer.unref?.()
      shared.set(key, (signal = controller.signal))
    }
    const mine = signal
    return { signal: mine, timedOut: () => mine.aborted, dispose: () => {} }
  }

  return (caller, timeoutMs) => {
    const finite = timeoutMs > 0 && Number.isFinite(timeoutMs)
    if (share && !caller && finite) return sharedTimeout(timeoutMs)
    const controller = new AbortController()
    let timedOut = false
    const abort = () => controller.abort(caller?.reason)
    // Aborted while the token or a rate-limit slot was awaited: the event has fired already.
    if (caller?.aborted) abort()
    const off = onAbort(caller, abort)
    const timer = finite
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
}
