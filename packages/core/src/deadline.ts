import { onAbort } from './abort.js'
import { MAX_TIMER_MS } from './timers.js'

/** One call's deadline: its `timeoutMs` from the start, and the caller's signal, as one signal. */
export interface Deadline {
  /** Aborts at the deadline or with the caller; `undefined` when there is neither. */
  readonly signal: AbortSignal | undefined
  /** Milliseconds left (Infinity without a deadline). */
  remaining: () => number
  /** The deadline passed (not the caller's abort). */
  expired: () => boolean
  dispose: () => void
}

/** No deadline and no caller's signal: the common case, one object for every call. */
const NONE: Deadline = { signal: undefined, remaining: () => Infinity, expired: () => false, dispose: () => {} }

/**
 * A deadline that covers everything a call does: waiting for a rate-limit slot, for a token, each
 * attempt and each backoff between them. Without `timeoutMs` it is just the caller's signal.
 */
export function createDeadline(caller: AbortSignal | undefined, timeoutMs: number | undefined): Deadline {
  if (timeoutMs === undefined || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    return caller ? { ...NONE, signal: caller } : NONE
  }
  const end = Date.now() + timeoutMs
  const controller = new AbortController()
  let expired = false
  if (caller?.aborted) controller.abort(caller.reason)
  const off = onAbort(caller, () => controller.abort(caller?.reason))
  const timer = setTimeout(
    () => {
      expired = true
      controller.abort(new Error('deadline'))
    },
    Math.min(timeoutMs, MAX_TIMER_MS),
  )
  return {
    signal: controller.signal,
    remaining: () => Math.max(0, end - Date.now()),
    expired: () => expired,
    dispose() {
      clearTimeout(timer)
      off()
    },
  }
}
