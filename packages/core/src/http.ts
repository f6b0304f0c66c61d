import { abortError, attemptSignal, fullJitter, parseRetryAfter, sleep, throwIfAborted, withSignal } from './backoff.js'
import { ApiError, AuthError, NetworkError, RateLimitError, TimeoutError, ValidationError } from './errors.js'
import type { SafeEmitter } from './events.js'
import { redact, type LogFn } from './logger.js'
import { buildUrl } from './url.js'
import type { RateLimiter } from './rate-limiter.js'
import type { TokenProvider } from './token-provider.js'
import type { ClientEvents, HttpMethod, RequestOptions, RetryOptions, ServiceName } from './types.js'

export interface HttpOptions {
  /** Looked up per request when absent, so a fetch patched after createClient (MSW, tests) is used. */
  fetch?: typeof globalThis.fetch
  auth: TokenProvider
  baseUrls: Record<ServiceName, string>
  limiters: Partial<Record<ServiceName, RateLimiter>>
  retry: RetryOptions | false
  timeoutMs: number
  idempotency: boolean
  log: LogFn
  emitter: SafeEmitter<ClientEvents>
}

export type Http = <T = unknown>(options: RequestOptions) => Promise<T>

/** With retries off nothing is retried, but a 429 still reports (and pauses the limiter for) a wait from these. */
const NO_RETRY: RetryOptions = { limit: 0, baseDelayMs: 1000, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 }
const IDEMPOTENT = new Set<HttpMethod>(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])
const METHODS = new Set<string>([...IDEMPOTENT, 'POST', 'PATCH'])
/** 4xx are final except these (DESIGN.md); 5xx gateway/availability errors are retried. */
const RETRY_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504])

/**
 * The request pipeline: rate limit → token → one fetch attempt → classify → retry.
 * Headers are rebuilt on every attempt, so a refreshed token is used (cf. ofetch#393).
 * Native fetch, not ofetch: see docs/architecture.md ("Why not ofetch").
 */
export function createHttp(options: HttpOptions): Http {
  const { auth, baseUrls, limiters, emitter, log } = options
  const inflight: Record<ServiceName, number> = { maps: 0, support: 0, realtime: 0 }

  return async function request<T>(req: RequestOptions): Promise<T> {
    const { service, method, path, signal } = req
    if (!baseUrls[service]) throw new ValidationError('service', `unknown service "${String(service)}"`)
    if (!METHODS.has(method)) throw new ValidationError('method', `unsupported method "${String(method)}"`)
    if (typeof path !== 'string' || !path.startsWith('/')) throw new ValidationError('path', 'must start with "/"')
    const retry = req.retry === false || options.retry === false ? NO_RETRY : { ...options.retry, ...req.retry }
    const isWrite = !IDEMPOTENT.has(method)
    const callerHeaders = normalizeHeaders(req.headers)
    const givenKey = req.idempotencyKey ?? callerHeaders['idempotency-key']
    if (givenKey !== undefined && (typeof givenKey !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(givenKey))) {
      throw new ValidationError('idempotencyKey', 'must be 1 to 255 printable ASCII characters')
    }
    const idempotencyKey = isWrite ? (givenKey ?? (options.idempotency ? randomId() : undefined)) : undefined
    const retryable = !isWrite || idempotencyKey !== undefined
    const limiter = limiters[service]
    // Local mistakes are ValidationErrors before anything is sent, never "network errors" to retry.
    const url = buildUrl(baseUrls[service], path, req.query)
    checkUrl(url)
    const body = serialize(req.body)
    let attempt = 0
    let replayedAfter401 = false

    const canRetry = () => retryable && attempt < retry.limit
    const jitter = () => fullJitter(attempt, retry.baseDelayMs, retry.maxDelayMs)
    async function backoff(delayMs: number, reason: string, durationMs: number, status?: number, requestId?: string) {
      emitter.emit('retry', { service, method, path, attempt, delayMs, reason, durationMs, status, requestId })
      log('warn', `${method} ${path} retry in ${delayMs} ms (${reason})`, { service, attempt })
      await sleep(delayMs, signal)
      attempt++
    }

    for (;;) {
      throwIfAborted(signal)
      // Token first: a slot taken while a token is being fetched would be sent late, in a burst.
      await auth.getToken({ signal })
      if (limiter) {
        const waited = await limiter.acquire(signal)
        if (waited > 0) {
          emitter.emit('rateLimitWait', { service, waitMs: waited, queued: limiter.queued })
          log('debug', `rate limit: waited ${waited} ms`, { service })
        }
      }
      const token = await auth.getToken({ signal }) // cached: the queue may have outlived a refresh
      const headers: Record<string, string> = { accept: JSON_TYPE, ...callerHeaders, authorization: `Bearer ${token}` }
      if (idempotencyKey) headers['idempotency-key'] = idempotencyKey
      if (body !== undefined) headers['content-type'] = JSON_TYPE
      const guard = attemptSignal(signal, req.timeoutMs ?? options.timeoutMs)
      const started = Date.now()
      const base = { service, method, path, attempt }
      let response: Response
      let text: string
      inflight[service]++
      try {
        // Read as text and parse ourselves, so a bad body becomes an ApiError, not a crash.
        const exchange = (async () => {
          const r = await (options.fetch ?? globalThis.fetch)(url, { method, headers, signal: guard.signal, body })
          return [r, await r.text()] as const
        })()
        // The platform fetch honours its signal; a custom one might not, and must not hang us.
        ;[response, text] = options.fetch ? await withSignal(exchange, guard.signal) : await exchange
      } catch (cause) {
        const durationMs = Date.now() - started
        const error = signal?.aborted
          ? abortError(signal)
          : guard.timedOut()
            ? new TimeoutError(`${method} ${path} timed out`, { code: 'timeout', cause })
            : new NetworkError(`${method} ${path}: network error`, { code: 'network_error', cause })
        emitter.emit('request', { ...base, durationMs, errorCode: error.code })
        if (error instanceof NetworkError && canRetry()) {
          await backoff(jitter(), error.code, durationMs)
          continue
        }
        log('error', `${method} ${path} ${error.code}`, { service, durationMs })
        throw error
      } finally {
        inflight[service]--
        guard.dispose()
      }

      const durationMs = Date.now() - started
      const { status, headers: h } = response
      const requestId = h.get('x-request-id') ?? undefined
      limiter?.update(readRateLimit(h), inflight[service])
      emitter.emit('request', { ...base, status, durationMs, requestId })
      log(status < 400 ? 'info' : 'warn', `${method} ${path} ${status} ${durationMs}ms`, {
        service,
        status,
        durationMs,
        requestId,
        attempt,
      })

      // Parsed here, not by fetch: a body that is not JSON must give an ApiError, never a crash.
      let json: unknown
      let notJson: unknown
      try {
        json = JSON.parse(text)
      } catch (cause) {
        notJson = cause
      }
      if (status >= 200 && status < 300) {
        // 204/205, HEAD and an empty DELETE have no body; any other success must be JSON.
        if (status === 204 || status === 205 || method === 'HEAD' || (method === 'DELETE' && text === ''))
          return undefined as T
        if (notJson === undefined) return json as T
        throw new ApiError(withRequestId(`${method} ${path}: ${status} with a body that is not JSON`, requestId), {
          code: 'invalid_response',
          status,
          requestId,
          cause: notJson,
        })
      }

      const errorBody = readError(json)
      const code = errorBody.code ?? `http_${status}`
      const message = redact(
        withRequestId(
          `${method} ${path}: ${status} ${code}${errorBody.message ? ` — ${errorBody.message}` : ''}`,
          requestId,
        ),
      )
      const init = { code, status, requestId, details: errorBody.details }

      if (status === 401 && !replayedAfter401) {
        // Refresh once (only drops the token if it is still the one we used) and replay once.
        replayedAfter401 = true
        auth.invalidate(token)
        continue
      }
      if (status === 401 || status === 403) throw new AuthError(message, init)

      const delay = parseRetryAfter(h.get('retry-after'), serverNow(h)) ?? jitter()
      // Never hold the whole service longer than we would wait ourselves (a bogus Retry-After must not freeze it).
      if (status === 429) limiter?.pause(Math.min(delay, retry.maxRetryAfterMs))
      if (RETRY_STATUS.has(status) && canRetry() && delay <= retry.maxRetryAfterMs) {
        await backoff(delay, code, durationMs, status, requestId)
        continue
      }
      throw status === 429 ? new RateLimitError(message, { ...init, retryAfterMs: delay }) : new ApiError(message, init)
    }
  }
}

const JSON_TYPE = 'application/json'
const withRequestId = (message: string, requestId?: string) =>
  requestId ? `${message} (request ${requestId})` : message

/** Tolerant: an HTML page, truncated JSON or an empty body still gives an error with the status. */
function readError(json: unknown): { code?: string; message?: string; details?: unknown } {
  const e = (json as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null | undefined)?.error
  return typeof e === 'object' && e ? { code: cut(e.code, 100), message: cut(e.message, 500), details: e.details } : {}
}

const cut = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : undefined)

function serialize(body: unknown): string | undefined {
  if (body === undefined) return undefined
  try {
    return JSON.stringify(body)
  } catch (cause) {
    throw new ValidationError(
      'body',
      `cannot be sent as JSON (${cause instanceof Error ? cause.message : 'unserializable'})`,
    )
  }
}

function normalizeHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!headers) return out
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || typeof value !== 'string' || /[\r\n\0]/.test(value)) {
      throw new ValidationError('headers', `"${name}" is not a valid header`)
    }
    out[name.toLowerCase()] = value
  }
  return out
}

function checkUrl(url: string): void {
  try {
    // Relative base URLs are fine in a page (same-origin proxy); elsewhere they must be absolute.
    new URL(url, (globalThis as { location?: { href?: string } }).location?.href)
  } catch {
    throw new ValidationError('baseUrl', 'must be an absolute http(s) URL')
  }
}

/** The server's clock from its Date header, so an HTTP-date Retry-After is immune to our skew. */
function serverNow(headers: Headers): number | undefined {
  const date = headers.get('date')
  const t = date ? Date.parse(date) : NaN
  return Number.isNaN(t) ? undefined : t
}

function readRateLimit(headers: Headers): { limit?: number; remaining?: number } {
  const num = (name: string) => {
    const n = Number(headers.get(name) ?? NaN)
    return Number.isFinite(n) && n >= 0 ? n : undefined
  }
  return { limit: num('ratelimit-limit'), remaining: num('ratelimit-remaining') }
}

export function randomId(): string {
  const c = globalThis.crypto
  if (c && typeof c.randomUUID === 'function') return c.randomUUID()
  // Insecure contexts (plain http on a LAN IP) have no randomUUID; uniqueness is all we need here.
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`
}
