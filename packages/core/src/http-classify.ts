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
    if (data === undefined || (method === 'DELETE' && data instanceof InvalidBody && data.empty)) {
      return status === 204 || status === 205 || method === 'HEAD' || method === 'DELETE'
        ? { kind: 'done', value: undefined }
        : invalid(call, status, requestId, undefined)
    }
    return data instanceof InvalidBody ? invalid(call, status, requestId, data.cause) : { kind: 'done', value: data }
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
    status === 429 ? new RateLimitError(message, { ...init, retryAfterMs }) : new ApiError(message, init)
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

function invalid(call: Call, status: number, requestId: string | undefined, cause: unknown): Step {
  const message = withRequestId(`${whereOf(call)}: ${status} with a body that is not JSON`, requestId)
  return { kind: 'fail', error: new ApiError(message, { code: 'invalid_response', status, requestId, cause }) }
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

export function readRateLimit(headers: Headers): { limit?: number; remaining?: number } {
  const num = (name: string) => {
    const n = Number(headers.get(name) ?? NaN)
    return Number.isFinite(n) && n >= 0 ? n : undefined
  }
  return { limit: num('ratelimit-limit'), remaining: num('ratelimit-remaining') }
}
