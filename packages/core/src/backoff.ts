import { AbortError } from './errors.js'

/** Exponential backoff: `base·2^attempt`, at most `cap` (attempt 0 waits `base`). */
export const backoffDelay = (attempt: number, baseMs: number, capMs: number): number =>
  Math.min(capMs, baseMs * 2 ** attempt)

/** Full jitter (AWS architecture blog): uniform in [0, min(cap, base·2^attempt)]. */
export function fullJitter(attempt: number, baseMs: number, capMs: number, random = Math.random): number {
  return Math.floor(random() * backoffDelay(attempt, baseMs, capMs))
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value || value.trim() === '') return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.ceil(seconds * 1000) : undefined
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

export function abortError(signal: AbortSignal): AbortError {
  return new AbortError('The operation was aborted', { code: 'aborted', cause: signal.reason })
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal)
}

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

/** Calls `listener` once when `signal` aborts; returns the cleanup. */
export function onAbort(signal: AbortSignal | undefined, listener: () => void): () => void {
  signal?.addEventListener('abort', listener, { once: true })
  return () => signal?.removeEventListener('abort', listener)
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

/** Races a shared promise against one caller's signal without cancelling the shared work. */
export function withSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(abortError(signal))
  return new Promise<T>((resolve, reject) => {
    const off = onAbort(signal, () => reject(abortError(signal)))
    promise.then(
      (v) => {
        off()
        resolve(v)
      },
      (e: unknown) => {
        off()
        reject(e)
      },
    )
  })
}

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
  const shared = new Map<number, AbortSignal>()

  function sharedTimeout(timeoutMs: number): AttemptSignal {
    const slice = Math.max(50, Math.round(timeoutMs / 50))
    const at = Math.ceil((Date.now() + timeoutMs) / slice) * slice
    let signal = shared.get(at)
    if (!signal) {
      const controller = new AbortController()
      const timer = setTimeout(
        () => {
          shared.delete(at)
          controller.abort(TIMED_OUT)
        },
        Math.min(at - Date.now(), MAX_TIMER_MS),
      ) as { unref?: () => void }
      timer.unref?.()
      shared.set(at, (signal = controller.signal))
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
