import type { Emitter } from 'nanoevents'
import { attemptSignal, fullJitter, parseRetryAfter, sleep, throwIfAborted } from './backoff.js'
import {
  AbortError, ApiError, AuthError, NetworkError, RateLimitError, TimeoutError, ValidationError,
} from './errors.js'
import { redact, type LogFn } from './logger.js'
import { buildUrl } from './url.js'
import type { RateLimiter } from './rate-limiter.js'
import type { TokenProvider } from './token-provider.js'
import type { ClientEvents, HttpMethod, RequestOptions, RetryOptions, ServiceName } from './types.js'

export interface HttpOptions {
  fetch: typeof globalThis.fetch
  auth: TokenProvider
  baseUrls: Record<ServiceName, string>
  limiters: Partial<Record<ServiceName, RateLimiter>>
  retry: RetryOptions | false
  timeoutMs: number
  idempotency: boolean
  log: LogFn
  emitter: Emitter<ClientEvents>
  random?: () => number
}

export type Http = <T = unknown>(options: RequestOptions) => Promise<T>

const IDEMPOTENT = new Set<HttpMethod>(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])
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
    const retry = req.retry === false || options.retry === false ? undefined : { ...options.retry, ...req.retry }
    const isWrite = !IDEMPOTENT.has(method)
    const idempotencyKey = isWrite ? req.idempotencyKey ?? (options.idempotency ? randomId() : undefined) : undefined
    const retryable = !isWrite || idempotencyKey !== undefined
    const limiter = options.limiters[service]
    let attempt = 0
    let replayedAfter401 = false

    for (;;) {
      throwIfAborted(signal)
      if (limiter) {
        const waited = await limiter.acquire(signal)
        if (waited > 0) {
          options.emitter.emit('rateLimitWait', { service, waitMs: waited, queued: limiter.queued })
          options.log('debug', `rate limit: waited ${waited} ms`, { service })
        }
      }
      const token = await options.auth.getToken({ signal })
      const headers: Record<string, string> = { accept: 'application/json', ...req.headers, authorization: `Bearer ${token}` }
      if (idempotencyKey) headers['idempotency-key'] = idempotencyKey
      const guard = attemptSignal(signal, req.timeoutMs ?? options.timeoutMs)
      const started = Date.now()
      const base = { service, method, path, attempt }
      if (req.body !== undefined) headers['content-type'] = 'application/json'
      let response: Response
      let text: string
      inflight[service]++
      try {
        response = await options.fetch(buildUrl(options.baseUrls[service], path, req.query), {
          method, headers, signal: guard.signal,
          body: req.body === undefined ? undefined : JSON.stringify(req.body),
        })
        // Read as text and parse ourselves, so a bad body becomes an ApiError, not a crash.
        text = await response.text()
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

      const body = parseErrorBody(text)
      const code = body.code ?? `http_${status}`
      const message = redact(`${method} ${path}: ${status} ${code}${body.message ? ` — ${body.message}` : ''}${requestId ? ` (request ${requestId})` : ''}`)
      const init = { code, status, requestId, details: body.details }

      if (status === 401 && !replayedAfter401) {
        // Refresh once (only drops the token if it is still the one we used) and replay once.
        replayedAfter401 = true
        options.auth.invalidate(token)
        continue
      }
      if (status === 401 || status === 403) throw new AuthError(message, init)

      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'))
      if (status === 429) {
        const wait = retryAfterMs ?? fullJitter(attempt, retry?.baseDelayMs ?? 1000, retry?.maxDelayMs ?? 10_000, random)
        limiter?.pause(wait)
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

/** 204/205 have no body; any other success must be JSON. */
function parseBody<T>(text: string, status: number, method: string, path: string, requestId?: string): T {
  if (status === 204 || status === 205 || method === 'HEAD') return undefined as T
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
