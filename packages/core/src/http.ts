import { attemptSignal, fullJitter, parseRetryAfter, sleep, throwIfAborted, withSignal } from './backoff.js'
import {
  AbortError, ApiError, AuthError, NetworkError, RateLimitError, TimeoutError, ValidationError,
} from './errors.js'
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
  random?: () => number
}

export type Http = <T = unknown>(options: RequestOptions) => Promise<T>

const DEFAULT_MAX_PAUSE_MS = 60_000
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
  const random = options.random ?? Math.random
  const inflight: Record<ServiceName, number> = { maps: 0, support: 0, realtime: 0 }

  return async function request<T>(req: RequestOptions): Promise<T> {
    const { service, method, signal } = req
    const path = req.path
    if (!options.baseUrls[service]) throw new ValidationError('service', `unknown service "${String(service)}"`)
    if (!METHODS.has(method)) throw new ValidationError('method', `unsupported method "${String(method)}"`)
    if (typeof path !== 'string' || !path.startsWith('/')) throw new ValidationError('path', 'must start with "/"')
    const retry = req.retry === false || options.retry === false ? undefined : { ...options.retry, ...req.retry }
    const isWrite = !IDEMPOTENT.has(method)
    const callerHeaders = normalizeHeaders(req.headers)
    const givenKey = req.idempotencyKey ?? callerHeaders['idempotency-key']
    if (givenKey !== undefined && (typeof givenKey !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(givenKey))) {
      throw new ValidationError('idempotencyKey', 'must be 1 to 255 printable ASCII characters')
    }
    const idempotencyKey = isWrite ? givenKey ?? (options.idempotency ? randomId() : undefined) : undefined
    const retryable = !isWrite || idempotencyKey !== undefined
    const limiter = options.limiters[service]
    // Local mistakes are ValidationErrors before anything is sent, never "network errors" to retry.
    const url = buildUrl(options.baseUrls[service], path, req.query)
    checkUrl(url)
    const body = serialize(req.body)
    let attempt = 0
    let replayedAfter401 = false

    for (;;) {
      throwIfAborted(signal)
      // Token first: a slot taken while a token is being fetched would be sent late, in a burst.
      await options.auth.getToken({ signal })
      if (limiter) {
        const waited = await limiter.acquire(signal)
        if (waited > 0) {
          options.emitter.emit('rateLimitWait', { service, waitMs: waited, queued: limiter.queued })
          options.log('debug', `rate limit: waited ${waited} ms`, { service })
        }
      }
      const token = await options.auth.getToken({ signal }) // cached: the queue may have outlived a refresh
      const headers: Record<string, string> = { accept: 'application/json', ...callerHeaders, authorization: `Bearer ${token}` }
      if (idempotencyKey) headers['idempotency-key'] = idempotencyKey
      if (body !== undefined) headers['content-type'] = 'application/json'
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
          ? new AbortError('The request was aborted', { code: 'aborted', cause: signal.reason })
          : guard.timedOut()
            ? new TimeoutError(`${method} ${path} timed out`, { code: 'timeout', cause })
            : new NetworkError(`${method} ${path} failed: network error`, { code: 'network_error', cause })
        options.emitter.emit('request', { ...base, durationMs, errorCode: error.code })
        if (error instanceof NetworkError && retry && retryable && attempt < retry.limit) {
          await backoff({ ...base, signal }, fullJitter(attempt, retry.baseDelayMs, retry.maxDelayMs, random), error.code, durationMs)
          attempt++
          continue
        }
        options.log('error', `${method} ${path} ${error.code}`, { service, durationMs })
        throw error
      } finally {
        inflight[service]--
        guard.dispose()
      }

      const durationMs = Date.now() - started
      const { status } = response
      const requestId = response.headers.get('x-request-id') ?? undefined
      limiter?.update(readRateLimit(response.headers), inflight[service])
      options.emitter.emit('request', { ...base, status, durationMs, requestId })
      options.log(status < 400 ? 'info' : 'warn', `${method} ${path} ${status} ${durationMs}ms`, { service, status, durationMs, requestId, attempt })

      if (status >= 200 && status < 300) return parseBody<T>(text, status, method, path, requestId)

      const errorBody = parseErrorBody(text)
      const code = errorBody.code ?? `http_${status}`
      const message = redact(`${method} ${path}: ${status} ${code}${errorBody.message ? ` — ${errorBody.message}` : ''}${requestId ? ` (request ${requestId})` : ''}`)
      const init = { code, status, requestId, details: errorBody.details }

      if (status === 401 && !replayedAfter401) {
        // Refresh once (only drops the token if it is still the one we used) and replay once.
        replayedAfter401 = true
        options.auth.invalidate(token)
        continue
      }
      if (status === 401 || status === 403) throw new AuthError(message, init)

      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), serverNow(response.headers))
      if (status === 429) {
        const wait = retryAfterMs ?? fullJitter(attempt, retry?.baseDelayMs ?? 1000, retry?.maxDelayMs ?? 10_000, random)
        // Never hold the whole service longer than we would wait ourselves (a bogus Retry-After must not freeze it).
        limiter?.pause(Math.min(wait, retry?.maxRetryAfterMs ?? DEFAULT_MAX_PAUSE_MS))
        if (retry && retryable && attempt < retry.limit && wait <= retry.maxRetryAfterMs) {
          await backoff({ ...base, signal }, wait, code, durationMs, status, requestId)
          attempt++
          continue
        }
        throw new RateLimitError(message, { ...init, retryAfterMs: wait })
      }
      if (RETRY_STATUS.has(status) && retry && retryable && attempt < retry.limit) {
        const delay = retryAfterMs ?? fullJitter(attempt, retry.baseDelayMs, retry.maxDelayMs, random)
        if (delay <= retry.maxRetryAfterMs) {
          await backoff({ ...base, signal }, delay, code, durationMs, status, requestId)
          attempt++
          continue
        }
      }
      throw new ApiError(message, init)
    }
  }

  async function backoff(
    base: { service: ServiceName; method: HttpMethod; path: string; attempt: number; signal?: AbortSignal },
    delayMs: number, reason: string, durationMs: number, status?: number, requestId?: string,
  ): Promise<void> {
    const { signal, ...event } = base
    options.emitter.emit('retry', { ...event, delayMs, reason, durationMs, status, requestId })
    options.log('warn', `${base.method} ${base.path} retry in ${delayMs} ms (${reason})`, { service: base.service, attempt: base.attempt })
    await sleep(delayMs, signal)
  }
}

/** 204/205, HEAD and an empty DELETE have no body; any other success must be JSON. */
function parseBody<T>(text: string, status: number, method: string, path: string, requestId?: string): T {
  if (status === 204 || status === 205 || method === 'HEAD' || (method === 'DELETE' && text === '')) return undefined as T
  try {
    return JSON.parse(text) as T
  } catch (cause) {
    throw new ApiError(`${method} ${path}: ${status} with a body that is not JSON${requestId ? ` (request ${requestId})` : ''}`, {
      code: 'invalid_response', status, requestId, cause,
    })
  }
}

interface ErrorBody {
  code?: string
  message?: string
  details?: unknown
}

/** Tolerant: an HTML page, truncated JSON or an empty body still gives an error with the status. */
function parseErrorBody(text: string | undefined): ErrorBody {
  if (!text) return {}
  try {
    const parsed = JSON.parse(text) as { error?: unknown }
    const error = parsed?.error
    if (typeof error !== 'object' || error === null) return {}
    const e = error as Record<string, unknown>
    return {
      code: typeof e.code === 'string' ? e.code.slice(0, 100) : undefined,
      message: typeof e.message === 'string' ? e.message.slice(0, 500) : undefined,
      details: e.details,
    }
  } catch {
    return {}
  }
}

function serialize(body: unknown): string | undefined {
  if (body === undefined) return undefined
  try {
    return JSON.stringify(body)
  } catch (cause) {
    throw new ValidationError('body', `cannot be sent as JSON (${cause instanceof Error ? cause.message : 'unserializable'})`)
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
    const v = headers.get(name)
    const n = v === null ? NaN : Number(v)
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
