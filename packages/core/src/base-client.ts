import { DEV } from '@tandem/contract/dev'
import type { CacheOptions, ResourceCache } from './cache/types.js'
import type { PathOf, TypedCollection } from './collection.js'
import { ATTEMPT_TIMEOUT_MS, BASE_URL, LOG_LEVEL, MAX_RESPONSE_BYTES, RATE_LIMITS, RETRY } from './defaults.js'
import { ValidationError } from './errors.js'
import { createEmitter } from './events.js'
import type { ClientHooks } from './hooks.js'
import { createHttp, type Http } from './http.js'
import { checkWait } from './http-call.js'
import type { LogTo } from './logger.js'
import type { OutboxLink } from './outbox-link.js'
import { createRateLimiter, type RateLimiter } from './rate-limiter.js'
import { createTokenProvider, type AuthOptions, type TokenProvider } from './token-provider.js'
import { formatBaseUrl, joinPath, parseBaseUrl, splitBaseUrl } from './url-rules.js'
import { UPLOAD_PATH } from '@tandem/contract'
import { discardFiles, withFiles } from './files-seam.js'
import type { UploadsSlot } from './uploads/types.js'
import {
  SERVICES,
  type ClientEvents,
  type LogLevel,
  type Logger,
  type RateLimitOptions,
  type RetryOptions,
  type ServiceName,
  type ServiceOptions,
  type Unsubscribe,
} from './types.js'

export interface ClientOptions {
  /**
   * Where the services live; each service is at `{baseUrl}/{service}` unless `services` says otherwise.
   * A query in it goes with every request (a request's own parameter of the same name wins). A
   * credential in it (`key=`, `api_key=`, `secret=`, `token=`…: `CREDENTIAL_PARAMS`), `user:password@`
   * or a `#fragment` is a `ValidationError` at once.
   * @default 'https://api.tandem.dev'
   */
  baseUrl?: string
  /**
   * Per service: its base URL and its client-side rate limit.
   */
  services?: Partial<Record<ServiceName, ServiceOptions>>
  /** Your backend's token endpoint, a callback, or a shared `TokenProvider`. Never a raw key. */
  auth: AuthOptions
  /** A fetch to use instead of the global one (MSW, tests, a proxy); ofetch still runs the pipeline through it. */
  fetch?: typeof globalThis.fetch
  /**
   * Interceptors: ofetch's `onRequest`, `onRequestError`, `onResponse`, `onResponseError`, with
   * ofetch's context. They run on every attempt (a retried call runs them again). See the README.
   */
  hooks?: ClientHooks
  /**
   * Retries after the first attempt (reads, and writes with an idempotency key), with full-jitter backoff; `false` turns them off.
   * @default { limit: 2, baseDelayMs: 300, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 }
   */
  retry?: Partial<RetryOptions> | false
  /**
   * The deadline of each call, in ms: it covers the wait for a rate-limit slot, the token, every
   * attempt and the backoff between them. A wait that would outlast it fails at once (a
   * `RateLimitError` with the wait, or a `TimeoutError`). A call's own `timeoutMs` overrides it.
   * @default none: a call may wait in the rate-limit queue as long as it takes
   */
  timeoutMs?: number
  /**
   * The longest a call may wait for a rate-limit slot, in ms. A call that would wait longer fails
   * at once with a `RateLimitError` `rate_limit_wait` carrying the estimated wait (`retryAfterMs`),
   * instead of queueing for minutes. A call's own `maxQueueWaitMs` overrides it.
   * @default none: only the call's deadline bounds the wait
   */
  maxQueueWaitMs?: number
  /**
   * Each attempt's own limit, in ms (within the call's deadline).
   * @default 15_000
   */
  attemptTimeoutMs?: number
  /**
   * The largest answer read, in bytes; past it the call fails with `ApiError` `response_too_large`
   * (read as it arrives: memory stays flat).
   * @default 3_000_000
   */
  maxResponseBytes?: number
  /**
   * Add an `Idempotency-Key` to every write so that retries apply once.
   * @default true
   */
  idempotency?: boolean
  /**
   * Where log lines go: `logTo(console)` (`logTo` of `@tandem/core/client` or `@tandem/core`, for
   * anything console-shaped), so an app that logs nothing ships no logger; `false` for none.
   * Tokens are never logged. A console-shaped logger itself is refused by `createBaseClient`, and
   * taken by `createClient` of `@tandem/core` only until the next minor (deprecated).
   * @default false
   */
  logger?: Logger | LogTo | false
  /**
   * The lowest level logged.
   * @default 'info'
   */
  logLevel?: LogLevel
  /**
   * Defaults and focus/online triggers of the resource cache (`getCache(client)`, `client.cache`).
   */
  cache?: CacheOptions
  /**
   * A durable outbox (`durableOutbox({ key })` of `@tandem/core/persist`): writes are stored before
   * they are sent, and sent again after a failure for now or a reload until the service answers.
   * @default none: a write lives as long as its call
   */
  outbox?: OutboxLink
}

/**
 * The client itself: auth, the request pipeline, rate limits and typed errors. The service
 * calls (`geocode(client, …)`, `maps(client)`, …), the collections (`collection(client, …)`) and
 * the cache (`getCache(client)`) are functions of their own, each in its entry, so an app ships
 * only what it calls.
 */
export interface Client {
  readonly auth: TokenProvider
  /** The raw pipeline (auth, rate limit, retries, typed errors) for endpoints without a helper. */
  readonly request: Http
  /** The service base URLs in use. */
  readonly baseUrls: Readonly<Record<ServiceName, string>>
  on: <E extends keyof ClientEvents>(event: E, callback: ClientEvents[E]) => Unsubscribe
  /**
   * Where this client's resource cache lives: the `cache` option, and the cache once
   * `getCache(client)` has made it (on first use: a client that never caches ships none). A
   * client composed from this one (`withServices`, a spread) holds the same slot, so the same cache.
   */
  readonly cacheSlot: CacheSlot
  /** Where this client's uploads store lives (`uploads(client)` of `@tandem/core/uploads`), shared the same way. */
  readonly uploadsSlot: UploadsSlot
}

export interface CacheSlot {
  readonly options: CacheOptions | undefined
  cache?: ResourceCache
}

export interface ServiceClient {
  /** The generic `/v1/resources` collection, typed by the contract. */
  readonly resources: TypedCollection<'maps/resources'>
}

export type { PathOf, TypedCollection }

/**
 * The modular client (`@tandem/core/client`): the pipeline alone; add the services you call.
 * (`createClient` of `@tandem/core` is this with every service and the cache attached.)
 *
 * @example
 * ```ts
 * import { createBaseClient } from '@tandem/core/client'
 * import { geocode } from '@tandem/core/maps'
 *
 * const client = createBaseClient({ auth: { url: '/api/tandem-token' } })
 * const { results } = await geocode(client, { query: 'Porto, Portugal' })
 * ```
 */
export function createBaseClient(options: ClientOptions): Client {
  if (typeof options !== 'object' || options === null)
    throw new ValidationError('options', DEV && process.env.NODE_ENV !== 'production' && 'must be an object')
  if (typeof options.auth !== 'object' || options.auth === null) {
    throw new ValidationError(
      'auth',
      DEV && process.env.NODE_ENV !== 'production' && 'is required: { url }, { fetchToken } or a TokenProvider',
    )
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function')
    throw new ValidationError('fetch', DEV && process.env.NODE_ENV !== 'production' && 'must be a fetch function')
  if (!options.fetch && typeof globalThis.fetch !== 'function')
    throw new ValidationError(
      'fetch',
      DEV && process.env.NODE_ENV !== 'production' && 'no global fetch: pass options.fetch',
    )
  // Without options.fetch, the global is looked up per request (so MSW or a test can patch it later).
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  const root = parseBaseUrl(options.baseUrl ?? BASE_URL, 'baseUrl')
  const emitter = createEmitter<ClientEvents>()
  const auth = createTokenProvider(options.auth, { fetch: fetchImpl })

  const baseUrls = {} as Record<ServiceName, string>
  const limiters: Partial<Record<ServiceName, RateLimiter>> = {}
  for (const service of SERVICES) {
    const s = options.services?.[service] ?? {}
    // Joined by URL: a query in the base URL stays a query (`?t=1` + `maps` → `/maps?t=1`).
    const url =
      s.baseUrl === undefined ? joinPath(root, service) : parseBaseUrl(s.baseUrl, `services.${service}.baseUrl`)
    baseUrls[service] = formatBaseUrl(url)
    const rate = s.rateLimit === undefined ? RATE_LIMITS[service] : s.rateLimit
    if (rate !== false)
      limiters[service] = createRateLimiter({
        ...normalizeRate(rate, service),
        name: service,
        onChange: (state) => emitter.emit('rateLimit', { service, ...state }),
      })
  }

  const http = createHttp({
    fetch: options.fetch,
    auth,
    baseUrls,
    limiters,
    retry: options.retry === false ? false : { ...RETRY, ...options.retry },
    timeoutMs: options.timeoutMs,
    maxQueueWaitMs: checkWait(options.maxQueueWaitMs, 'maxQueueWaitMs'),
    attemptTimeoutMs: options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
    hooks: options.hooks,
    idempotency: options.idempotency ?? true,
    log: logOf(options),
    emitter,
  })

  const uploadsSlot: UploadsSlot = {}
  // Writes with files: the uploader is loaded on the first (files-seam.ts); below the outbox, which stores the files.
  const filesContext = {
    auth,
    fetch: fetchImpl,
    endpoint: splitBaseUrl(baseUrls.support).base + UPLOAD_PATH,
    limiter: limiters.support,
    slot: uploadsSlot,
    idempotency: options.idempotency ?? true,
  }
  const files = withFiles(http, filesContext)
  const request = options.outbox ? options.outbox.rest(files, discardFiles(filesContext)) : files
  return { auth, request, baseUrls, on: emitter.on, cacheSlot: { options: options.cache }, uploadsSlot }
}

/** @deprecated Renamed `createBaseClient` (the modular client); this name goes in the next minor. */
export const createClient = createBaseClient

/** The pipeline's log, only for a client given one: `logTo(…)`. */
function logOf({ logger, logLevel }: ClientOptions) {
  if (typeof logger === 'function') return logger(logLevel ?? LOG_LEVEL)
  if (logger)
    throw new ValidationError(
      'logger',
      DEV &&
        process.env.NODE_ENV !== 'production' &&
        "pass logTo(console) (import { logTo } from '@tandem/core/client')",
    )
  return undefined
}

function normalizeRate(rate: RateLimitOptions, service: ServiceName): { limit: number; intervalMs: number } {
  const { limit, intervalMs } =
    'requestsPerMinute' in rate ? { limit: rate.requestsPerMinute, intervalMs: 60_000 } : rate
  if (!(limit > 0) || !(intervalMs > 0))
    throw new ValidationError(
      `services.${service}.rateLimit`,
      DEV && process.env.NODE_ENV !== 'production' && 'limit and interval must be positive',
    )
  return { limit, intervalMs }
}
