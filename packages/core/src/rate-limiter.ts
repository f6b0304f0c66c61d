import { msUntil, refill as refillBucket, type RateLimitBucket } from '@tandem/contract'
import { abortError, onAbort } from './abort.js'
import { MAX_TIMER_MS } from './timers.js'
import { RATE_LIMIT_SAFETY_MS } from './defaults.js'
import { RateLimitError } from './errors.js'

export interface RateLimiterOptions {
  /**
   * Requests per `intervalMs` (the bucket's capacity).
   */
  limit: number
  /**
   * The window in which `limit` requests may go.
   */
  intervalMs: number
  /** Named in errors (`support: …`). */
  name?: string
  /**
   * Refill starts this much late after a burst, absorbing network jitter.
   * @default 200
   */
  safetyMs?: number
  /**
   * The clock (tests).
   * @default `Date.now`
   */
  now?: () => number
  /**
   * Told whenever the queue changes (how many wait, how long the last of them will), and when a
   * response changes the budget left (`remaining` whole tokens of `limit`).
   */
  onChange?: (state: RateLimiterState) => void
}

export interface RateLimiterState {
  queued: number
  waitMs: number
  remaining: number
  limit: number
  /** The bucket the service last named (`app` until it names one). */
  bucket: RateLimitBucket
}

export interface RateLimitHeaders {
  limit?: number
  remaining?: number
  /** Whose bucket `limit` and `remaining` describe (`Tandem-RateLimit-Bucket`); absent when the answer had none. */
  bucket?: RateLimitBucket
}

export interface RateLimiter {
  /**
   * Resolves when a request may go; waits in FIFO order instead of failing. Returns the ms waited.
   * When the wait would outlast `maxWaitMs` (a call's deadline), rejects at once with a
   * `RateLimitError` `rate_limit_wait` carrying the estimated wait.
   */
  acquire: (signal?: AbortSignal, maxWaitMs?: number) => Promise<number>
  /** How long a request arriving now would wait for its slot, in ms (0: none). */
  estimate: () => number
  /** Re-seeds from the service's `RateLimit-*` headers; `inflight` are requests it has not counted yet. */
  update: (headers: RateLimitHeaders, inflight: number) => void
  /** The service said 429: nothing goes for `ms`. */
  pause: (ms: number) => void
  /** How much longer that pause holds everything, in ms (0: none): a wait starting now is the service's, not the bucket's. */
  pausedMs: () => number
  readonly queued: number
}

/**
 * A token bucket shaped like the service's: capacity `limit`, refilled continuously at
 * `limit / intervalMs`. A client that waits on it never sends what the service would refuse.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const now = options.now ?? (() => Date.now())
  const safetyMs = options.safetyMs ?? RATE_LIMIT_SAFETY_MS
  let capacity = options.limit
  let perMs = options.limit / options.intervalMs
  let tokens = capacity
  // When the bucket last refilled: never, until it is first used (it is full until then). The
  // clock is read then, not when the client is made: a render makes clients, and Next.js refuses
  // the clock while it prerenders one (cacheComponents).
  let last = -Infinity
  let pausedUntil = 0
  let bucket: RateLimitBucket = 'app'
  /** Waiters in FIFO order; each lets its request go when called with the current time. */
  const queue: ((t: number) => void)[] = []
  let timer: ReturnType<typeof setTimeout> | undefined

  function refill(t: number): void {
    if (t > last) {
      if (last > -Infinity) tokens = refillBucket(tokens, capacity, t - last, perMs)
      last = t
    }
  }

  function take(t: number): void {
    // Leaving a full bucket: start refilling `safetyMs` late, as the service's bucket may have started later than ours.
    if (tokens >= capacity) last = Math.max(last, t + safetyMs)
    tokens -= 1
  }

  function drain(): void {
    timer = undefined
    const t = now()
    refill(t)
    const before = queue.length
    while (queue.length > 0 && t >= pausedUntil && tokens >= 1) {
      take(t)
      queue.shift()!(t)
    }
    schedule(t)
    if (queue.length !== before) changed()
  }

  /** The budget `onChange` was last told: a response that leaves it as it was tells nothing. */
  let toldLeft = -1
  let toldLimit = 0
  let toldBucket: RateLimitBucket = bucket
  const left = () => Math.max(0, Math.floor(tokens))

  /** Tells `onChange` the queue's length, the wait of its last request and the budget left. */
  function changed(waitMs?: number): void {
    if (!options.onChange) return
    const t = now()
    waitMs ??= queue.length ? estimate(t, queue.length) : 0
    options.onChange({
      queued: queue.length,
      waitMs,
      remaining: (toldLeft = left()),
      limit: (toldLimit = capacity),
      bucket: (toldBucket = bucket),
    })
  }

  /** The wait of a request arriving at `t` behind everything queued: until the pause ends and its token has refilled. */
  function estimate(t: number, position = queue.length + 1): number {
    refill(t)
    const missing = position - tokens
    const untilToken = missing <= 0 ? 0 : Math.max(0, last - t) + msUntil(0, missing, perMs)
    return Math.ceil(Math.max(untilToken, pausedUntil - t, 0))
  }

  function schedule(t: number): void {
    if (queue.length === 0 || timer) return
    const untilToken = tokens >= 1 ? 0 : Math.max(0, last - t) + msUntil(tokens, 1, perMs)
    const wait = Math.max(untilToken, pausedUntil - t, 0)
    timer = setTimeout(drain, Math.min(Math.ceil(wait), MAX_TIMER_MS))
  }

  return {
    acquire(signal, maxWaitMs = Infinity) {
      if (signal?.aborted) return Promise.reject(abortError(signal))
      const t = now()
      refill(t)
      if (queue.length === 0 && t >= pausedUntil && tokens >= 1) {
        take(t)
        return Promise.resolve(0)
      }
      const wait = estimate(t)
      if (wait > maxWaitMs) {
        const name = options.name ? `${options.name}: ` : ''
        const message = `${name}rate limited: the next slot is ~${wait} ms away, past this call's deadline`
        return Promise.reject(new RateLimitError(message, { code: 'rate_limit_wait', retryAfterMs: wait, bucket }))
      }
      return new Promise<number>((resolve, reject) => {
        const go = (granted: number) => {
          off()
          resolve(granted - t)
        }
        // Aborted (a superseded search, an unmounted component): out of the queue at once, so
        // the requests behind it move up.
        const off = onAbort(signal, () => {
          const i = queue.indexOf(go)
          if (i >= 0) queue.splice(i, 1)
          changed()
          reject(abortError(signal!))
        })
        queue.push(go)
        schedule(t)
        changed(wait)
      })
    },
    estimate: () => estimate(now()),
    update({ limit, remaining, bucket: named }, inflight) {
      const t = now()
      refill(t)
      // Whichever bucket the answer names (a customer's own 60 a minute, or the app's plan), its
      // figures are followed the same way, so a customer's client paces itself to its own bucket.
      if (named !== undefined) bucket = named
      if (limit !== undefined && limit > 0 && limit < capacity) {
        // The service's plan is smaller than configured: follow it (never raise past what the user set).
        perMs = (perMs * limit) / capacity
        capacity = limit
        tokens = Math.min(tokens, capacity)
      }
      // Only ever lower: the service knows about other clients of the same app, we know our in-flight requests.
      if (remaining !== undefined) tokens = Math.min(tokens, remaining - inflight)
      if (left() !== toldLeft || capacity !== toldLimit || bucket !== toldBucket) changed()
    },
    pause(ms) {
      const t = now()
      refill(t)
      pausedUntil = Math.max(pausedUntil, t + ms)
      tokens = Math.min(tokens, 0)
      if (timer) {
        clearTimeout(timer)
        timer = undefined
      }
      schedule(t)
      changed()
    },
    pausedMs: () => Math.max(0, pausedUntil - now()),
    get queued() {
      return queue.length
    },
  }
}
