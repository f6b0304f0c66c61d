import { RATE_LIMIT_BUCKETS, RATE_LIMIT_HEADERS, wrongField, type RateLimitBucket } from '@tandem/contract'
import { fullJitter, parseRetryAfter } from './backoff.js'
import { ApiError, AuthError, NetworkError, RateLimitError, type TandemError } from './errors.js'
import { whereOf, type Call } from './http-call.js'
import { redact } from './redact.js'

// Step 3 of a request, "classify": what one attempt's outcome means. Each outcome becomes a
// value, a retry after some delay, a replay with a fresh token, or a typed error.

/**
 * Statuses worth another attempt (reads, and writes with an idempotency key), as ofetch's own
 * list; every other 4xx is final (DESIGN.md §4).
 */
const RETRY_STATUS = new Set([
  408, // Request Timeout: the service gave up waiting for us; nothing was applied
  409, // Conflict: an idempotent write still in flight on the service; the replay returns its answer
  425, // Too Early: the service will not risk a replay yet
  429, // Too Many Requests: wait for Retry-After (and pause the whole service's bucket)
  500, // Internal Server Error: may be transient
  502, // Bad Gateway: a proxy lost the upstream
  503, // Service Unavailable: overloaded or restarting; Retry-After when it knows
  504, // Gateway Timeout: a proxy timed out waiting
])

/** A body that is not JSON (HTML, truncated, empty): kept, so the status still gives a typed error. */
export class InvalidBody {
  constructor(
    readonly cause: unknown,
    readonly empty: boolean,
  ) {}
}

/** ofetch's `parseResponse`: strict JSON, never a crash and never a string that looks like data. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (cause) {
    return new InvalidBody(cause, text === '')
  }
}

/** What an attempt ended with: an HTTP answer (any status), or no answer at all (already typed). */
export type Outcome =
  | { response: Response & { _data?: unknown }; error?: undefined; durationMs: number; cause?: unknown }
  | { response?: undefined; error: TandemError; durationMs: number }

export type Step =
  | { kind: 'done'; value: unknown }
  /** `error` is what the call fails with if the retry cannot happen (past its deadline). */
  | { kind: 'retry'; delayMs: number; reason: string; status?: number; requestId?: string; error: TandemError }
  | { kind: 'reauth' }
  | { kind: 'fail'; error: TandemError }

const withRequestId = (message: string, requestId?: string) =>
  requestId ? `${message} (request ${requestId})` : message

/** Retries left for this call (reads, and writes with an idempotency key). */
export const canRetry = (call: Call): boolean => call.retryable && call.attempt < call.retry.limit

/** Full-jitter backoff for the next attempt. */
export const jitter = (call: Call): number => fullJitter(call.attempt, call.retry.baseDelayMs, call.retry.maxDelayMs)

export function classify(call: Call, outcome: Outcome): Step {
  const { method } = call
  if (outcome.error) {
    const error = outcome.error
    return error instanceof NetworkError && canRetry(call)
      ? { kind: 'retry', delayMs: jitter(call), reason: error.code, error }
      : { kind: 'fail', error }
  }
  const { response } = outcome
  const { status, headers } = response
  const requestId = headers.get('x-request-id') ?? undefined
  const data = response._data

  // Redirects are never followed (`redirect: 'manual'`); in a browser the target is hidden (status 0).
  if ((status >= 300 && status < 400) || response.type === 'opaqueredirect') return redirect(call, response, requestId)

  if (status >= 200 && status < 300) {
    // 204/205 and HEAD have no body (ofetch leaves `_data` unset); an empty DELETE is fine too.
    // A call given a `shape` expects a body.
    if (data === undefined || (method === 'DELETE' && data instanceof InvalidBody && data.empty)) {
      return (status === 204 || status === 205 || method === 'HEAD' || method === 'DELETE') && !call.shape
        ? { kind: 'done', value: undefined }
        : invalid(call, status, requestId, 'a body that is not JSON')
    }
    if (data instanceof InvalidBody) return invalid(call, status, requestId, 'a body that is not JSON', data.cause)
    const { shape } = call
    const wrong = typeof shape === 'string' ? wrongField(data, shape) : shape?.(data, requestId)
    return wrong === undefined
      ? { kind: 'done', value: data }
      : invalid(call, status, requestId, `an answer whose ${wrong} is not what the contract says`)
  }

  const body = readError(data)
  const code = body.code ?? `http_${status}`
  const message = redact(
    withRequestId(`${whereOf(call)}: ${status} ${code}${body.message ? ` — ${body.message}` : ''}`, requestId),
  )
  // ofetch's FetchError (for an error status) is the cause.
  const init = { code, status, requestId, details: body.details, cause: outcome.cause }
  if (status === 401 && !call.replayedAfter401) return { kind: 'reauth' }
  if (status === 401 || status === 403) return { kind: 'fail', error: new AuthError(message, init) }
  const final = (retryAfterMs: number) =>
    status === 429
      ? new RateLimitError(message, { ...init, retryAfterMs, bucket: refusedBucket(headers, body.details) })
      : new ApiError(message, init)
  try {
    const delayMs = retryDelay(call, status, headers, final)
    return { kind: 'retry', delayMs, reason: code, status, requestId, error: final(delayMs) }
  } catch (error) {
    return { kind: 'fail', error: error as TandemError }
  }
}

/**
 * The wait before the next attempt after an error status, or a throw when there is none: the
 * status is final, the retries are spent, or the service asks for longer than we wait. A 429
 * pauses the service's whole bucket, never longer than we would wait ourselves (a bogus
 * Retry-After must not freeze it). The error thrown is `final(wait)`.
 */
export function retryDelay(
  call: Call,
  status: number,
  headers: Headers,
  final: (retryAfterMs: number) => TandemError,
): number {
  const delay = parseRetryAfter(headers.get('retry-after'), serverNow(headers)) ?? jitter(call)
  if (status === 429) call.limiter?.pause(Math.min(delay, call.retry.maxRetryAfterMs))
  if (RETRY_STATUS.has(status) && canRetry(call) && delay <= call.retry.maxRetryAfterMs) return delay
  throw final(delay)
}

/** A redirect: an `ApiError` naming where it pointed (the origin only: a path or query may hold anything). */
function redirect(call: Call, response: Response, requestId: string | undefined): Step {
  const { status } = response
  let target = 'a target the browser hides'
  try {
    const location = response.headers.get('location')
    const base = new URL(call.baseURL, (globalThis as { location?: { href?: string } }).location?.href)
    if (location) target = new URL(location, base).origin
  } catch {
    target = 'an unreadable location'
  }
  const message = withRequestId(`${whereOf(call)}: ${status} redirect to ${target}, not followed`, requestId)
  return { kind: 'fail', error: new ApiError(message, { code: 'unexpected_redirect', status, requestId }) }
}

/** A 2xx answer the caller cannot use: `bad_response`, whatever the reason (not JSON, not the contract's shape). */
function invalid(call: Call, status: number, requestId: string | undefined, what: string, cause?: unknown): Step {
  const message = withRequestId(`${whereOf(call)}: ${status} with ${what}`, requestId)
  return { kind: 'fail', error: new ApiError(message, { code: 'bad_response', status, requestId, cause }) }
}

/** Tolerant: an HTML page, truncated JSON or an empty body still gives an error with the status. */
function readError(json: unknown): { code?: string; message?: string; details?: unknown } {
  const e = (json as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null | undefined)?.error
  return typeof e === 'object' && e ? { code: cut(e.code, 100), message: cut(e.message, 500), details: e.details } : {}
}

const cut = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : undefined)

/** The server's clock from its Date header, so an HTTP-date Retry-After is immune to our skew. */
function serverNow(headers: Headers): number | undefined {
  const date = headers.get('date')
  const t = date ? Date.parse(date) : NaN
  return Number.isNaN(t) ? undefined : t
}

const asBucket = (value: unknown): RateLimitBucket | undefined => RATE_LIMIT_BUCKETS.find((bucket) => bucket === value)

/**
 * The rate limit an answer describes: `RateLimit-Limit`, `-Remaining`, and whose bucket they are
 * (`Tandem-RateLimit-Bucket`; an unknown or absent name is the app's, as from older services).
 * No bucket when the answer has no `RateLimit-*` at all (a proxy's error page says nothing).
 */
export function readRateLimit(headers: Headers): { limit?: number; remaining?: number; bucket?: RateLimitBucket } {
  const num = (name: string) => {
    const n = Number(headers.get(name) ?? NaN)
    return Number.isFinite(n) && n >= 0 ? n : undefined
  }
  const limit = num(RATE_LIMIT_HEADERS.limit)
  const remaining = num(RATE_LIMIT_HEADERS.remaining)
  if (limit === undefined && remaining === undefined) return {}
  return { limit, remaining, bucket: asBucket(headers.get(RATE_LIMIT_HEADERS.bucket)) ?? 'app' }
}

/** The bucket a 429 names: its header, else `error.details[0].bucket`, else the app's. */
function refusedBucket(headers: Headers, details: unknown): RateLimitBucket {
  const first: unknown = Array.isArray(details) ? details[0] : undefined
  const detail = typeof first === 'object' && first !== null ? (first as { bucket?: unknown }).bucket : undefined
  return asBucket(headers.get(RATE_LIMIT_HEADERS.bucket)) ?? asBucket(detail) ?? 'app'
}
