// Delays before a retry: the one backoff (exponential, full jitter) every retry in Tandem uses.

/** Exponential backoff: `base·2^attempt`, at most `cap` (attempt 0 waits `base`). */
export const backoffDelay = (attempt: number, baseMs: number, capMs: number): number =>
  Math.min(capMs, baseMs * 2 ** attempt)

/**
 * Full jitter (AWS architecture blog): uniform in [0, min(cap, base·2^attempt)]. `floor`, a share of
 * that delay always waited (0.5: "equal jitter", for a wait that must never be near zero), raises the low end.
 */
export function fullJitter(attempt: number, baseMs: number, capMs: number, random = Math.random, floor = 0): number {
  return Math.floor(backoffDelay(attempt, baseMs, capMs) * (floor + random() * (1 - floor)))
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value || value.trim() === '') return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.ceil(seconds * 1000) : undefined
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

export interface BackoffOptions {
  /**
   * The first delay is up to this long.
   * @default 500
   */
  baseMs: number
  /**
   * No delay is longer.
   * @default 20_000
   */
  capMs: number
  /**
   * A connection up this long resets the attempt count.
   * @default 10_000
   */
  stableMs: number
  /**
   * The longest wait a server may ask for (a close's `retryAfterMs`); past it, this is waited.
   * @default 300_000
   */
  serverMaxMs: number
}

export interface Backoff {
  /** The connection is up: if it stays up for `stableMs`, the next delay starts from scratch. */
  up: () => void
  /** The last connection stayed up `stableMs` (ask before `next()`, which forgets it). */
  stable: () => boolean
  /** The delay before the next attempt. */
  next: () => number
  reset: () => void
  readonly options: BackoffOptions
}

/** Exponential backoff with full jitter, so a fleet of clients does not reconnect in step. */
export function createBackoff(o: BackoffOptions, random = Math.random, now = () => Date.now()): Backoff {
  let attempt = 0
  let upSince: number | undefined
  return {
    options: o,
    up() {
      upSince = now()
    },
    stable: () => upSince !== undefined && now() - upSince >= o.stableMs,
    next() {
      if (upSince !== undefined && now() - upSince >= o.stableMs) attempt = 0
      upSince = undefined
      return fullJitter(attempt++, o.baseMs, o.capMs, random)
    },
    reset() {
      attempt = 0
      upSince = undefined
    },
  }
}
