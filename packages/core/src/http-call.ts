import { IDEMPOTENCY_KEY_RULE, isCredentialParam, isIdempotencyKey, wrongField } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { ValidationError } from './errors.js'
import type { RateLimiter } from './rate-limiter.js'
import type { AnswerShape, HttpMethod, Query, RequestOptions, RetryOptions, ServiceName } from './types.js'

// Step 1 of a request, "prepare": everything that can be refused is refused here, before a token
// is fetched or a rate-limit slot taken, as a ValidationError naming the input.

/** With retries off nothing is retried, but a 429 still reports (and pauses the limiter for) a wait from these. */
const NO_RETRY: RetryOptions = { limit: 0, baseDelayMs: 1000, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 }
const IDEMPOTENT = new Set<HttpMethod>(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])
const METHODS = new Set<string>([...IDEMPOTENT, 'POST', 'PATCH'])
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** One request as the pipeline carries it from attempt to attempt. */
export interface Call {
  /** This call's `callId` in the events (see `RequestEvent.callId`). */
  readonly callId: number
  readonly service: ServiceName
  readonly method: HttpMethod
  /** The service's base URL, and the path under it (what logs and errors name; never the query). */
  readonly baseURL: string
  readonly path: string
  readonly query: Query | undefined
  /** What ofetch sends: a plain object (ofetch serialises it and sets its content type) or our JSON text. */
  readonly body: unknown
  readonly headers: Record<string, string>
  readonly idempotencyKey: string | undefined
  /** Reads, and writes that carry an idempotency key: a retry cannot apply them twice. */
  readonly retryable: boolean
  readonly retry: RetryOptions
  readonly limiter: RateLimiter | undefined
  readonly signal: AbortSignal | undefined
  /** The whole call's deadline (undefined: none). */
  readonly timeoutMs: number | undefined
  /** This call's bound on the rate-limit wait (undefined: the client's). */
  readonly maxQueueWaitMs: number | undefined
  /** What a 2xx answer must be (`RequestOptions.shape`). */
  readonly shape: AnswerShape | undefined
  /** Attempts made so far (0 during the first). */
  attempt: number
  /** The one replay after a 401 has been spent. */
  replayedAfter401: boolean
}

export interface PrepareContext {
  baseUrls: Record<ServiceName, string>
  limiters: Partial<Record<ServiceName, RateLimiter>>
  retry: RetryOptions | false
  timeoutMs: number | undefined
  idempotency: boolean
  randomId: () => string
  /** Calls prepared so far: the last `callId` given (one counter per client). */
  calls: number
}

export function prepare(req: RequestOptions, ctx: PrepareContext): Call {
  const { service, method, path } = req
  const baseURL = ctx.baseUrls[service]
  if (!baseURL)
    throw new ValidationError(
      'service',
      DEV && process.env.NODE_ENV !== 'production' && `unknown service "${String(service)}"`,
      String(service),
    )
  if (!METHODS.has(method))
    throw new ValidationError(
      'method',
      DEV && process.env.NODE_ENV !== 'production' && `unsupported method "${String(method)}"`,
      String(method),
    )
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new ValidationError('path', DEV && process.env.NODE_ENV !== 'production' && 'must start with "/"')
  const headers = normalizeHeaders(req.headers)
  const givenKey = req.idempotencyKey ?? headers['idempotency-key']
  if (givenKey !== undefined && !isIdempotencyKey(givenKey))
    throw new ValidationError('idempotencyKey', DEV && process.env.NODE_ENV !== 'production' && IDEMPOTENCY_KEY_RULE)
  delete headers['idempotency-key'] // set again per attempt, from `idempotencyKey`
  const isWrite = !IDEMPOTENT.has(method)
  const idempotencyKey = isWrite ? (givenKey ?? (ctx.idempotency ? ctx.randomId() : undefined)) : undefined
  return {
    service,
    method,
    baseURL,
    path,
    query: checkQuery(req.query),
    body: checkBody(req.body),
    headers,
    idempotencyKey,
    retryable: !isWrite || idempotencyKey !== undefined,
    retry:
      req.retry === false || ctx.retry === false ? NO_RETRY : req.retry ? { ...ctx.retry, ...req.retry } : ctx.retry,
    limiter: ctx.limiters[service],
    signal: req.signal,
    timeoutMs: req.timeoutMs ?? ctx.timeoutMs,
    maxQueueWaitMs: checkWait(req.maxQueueWaitMs, 'maxQueueWaitMs'),
    shape: checkShape(req.shape),
    callId: ++ctx.calls, // last: a call refused above takes no id
    attempt: 0,
    replayedAfter401: false,
  }
}

/**
 * The query as ofetch should send it: undefined and null left out, the rest stringifiable. A value
 * that would not survive that (an object, NaN, Infinity) is refused, never sent as `[object Object]`.
 * An empty string is refused too: the contract states every query parameter `allowEmptyValue:
 * false` and the services answer `?cursor=` or `?status=` with 400, so leave an unused one out.
 * (A scalar given twice cannot be built here: an array value is refused above.)
 */
function checkQuery(query: Query | undefined): Query | undefined {
  if (!query) return undefined
  const out = Object.create(null) as Query // keyed by the caller's names: `__proto__` is a parameter too
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    const t = typeof value
    if (!(t === 'string' || t === 'boolean' || (t === 'number' && Number.isFinite(value)))) {
      throw new ValidationError(
        key,
        DEV && process.env.NODE_ENV !== 'production' && 'must be a string, a finite number or a boolean',
      )
    }
    if (value === '')
      throw new ValidationError(
        key,
        DEV && process.env.NODE_ENV !== 'production' && 'must not be empty (leave it out instead)',
      )
    // A credential in a URL reaches access logs, history and Referer: the services refuse it, so never send one.
    if (isCredentialParam(key))
      throw new ValidationError(
        key,
        DEV &&
          process.env.NODE_ENV !== 'production' &&
          'is a credential parameter: credentials go in the Authorization header (the client adds the token), never in a URL',
      )
    out[key] = value
  }
  return out
}

/** JSON or refused: a plain object goes to ofetch as it is; anything else as the JSON text we checked. */
function checkBody(body: unknown): unknown {
  if (body === undefined) return undefined
  let json: string
  try {
    json = JSON.stringify(body)
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : 'unserializable'
    throw new ValidationError(
      'body',
      DEV && process.env.NODE_ENV !== 'production' && `cannot be sent as JSON (${why})`,
      why,
    )
  }
  const proto = typeof body === 'object' && body !== null ? (Object.getPrototypeOf(body) as unknown) : undefined
  return proto === Object.prototype || Array.isArray(body) ? body : json
}

function normalizeHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  // Keyed by the caller's names: no prototype, so `__proto__` is a header like any other.
  const out = Object.create(null) as Record<string, string>
  if (!headers) return out
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name) || typeof value !== 'string' || /[\r\n\0]/.test(value)) {
      throw new ValidationError(
        'headers',
        DEV && process.env.NODE_ENV !== 'production' && `"${name}" is not a valid header`,
        `"${name}"`,
      )
    }
    out[name.toLowerCase()] = value
  }
  return out
}

/** A shape: absent, a function, or a line that compiles (a malformed one is refused here, not on the answer). */
function checkShape(shape: unknown): AnswerShape | undefined {
  let ok = shape === undefined || typeof shape === 'function'
  try {
    if (typeof shape === 'string') ok = wrongField(undefined, shape) !== undefined
  } catch {
    ok = false
  }
  if (!ok)
    throw new ValidationError(
      'shape',
      DEV && process.env.NODE_ENV !== 'production' && 'must be a line of fields or a function',
    )
  return shape as AnswerShape | undefined
}

/** A bound on a wait, in ms: absent, or a number ≥ 0 (NaN or a negative would bound nothing). */
export function checkWait(ms: number | undefined, field: string): number | undefined {
  if (ms !== undefined && !(typeof ms === 'number' && ms >= 0))
    throw new ValidationError(field, DEV && process.env.NODE_ENV !== 'production' && 'must be a number of ms ≥ 0')
  return ms
}

/**
 * Where a call went, for error messages: the method, the service's host and the full path
 * (`GET api.tandem.dev/maps/v1/geocode`), never the query string, credentials or a token. Built
 * only when an error needs it.
 */
export function whereOf(call: Pick<Call, 'method' | 'baseURL' | 'path'>): string {
  try {
    const url = new URL(call.baseURL + call.path, (globalThis as { location?: { href?: string } }).location?.href)
    return `${call.method} ${url.host}${url.pathname}`
  } catch {
    return `${call.method} ${call.path}`
  }
}
