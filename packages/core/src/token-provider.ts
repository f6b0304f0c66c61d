import { createAttemptSignals, fullJitter, sleep, withSignal } from './backoff.js'
import { TOKEN_DEFAULTS } from './defaults.js'
import { createEmitter } from './events.js'
import { limitBody } from './body-limit.js'
import { AuthError, NetworkError, TandemError, ValidationError } from './errors.js'
import { refuseCredentials } from './url-rules.js'

const TOKEN_RESPONSE_MAX_BYTES = 65_536
import type { Unsubscribe } from './types.js'

export interface TokenResponse {
  token: string
  /** Seconds from now. The expiry is computed from our own clock at receipt, so skew cannot matter. */
  expiresIn: number
}

export type FetchToken = (context: { signal: AbortSignal }) => Promise<TokenResponse>

/** Where tokens come from: the app's own token endpoint, a callback, or a provider to share. */
export type AuthOptions = { url: string; init?: RequestInit } | { fetchToken: FetchToken } | TokenProvider

export interface TokenInfo {
  token: string
  /** Epoch ms, local clock. */
  expiresAt: number
  expiresIn: number
}

export interface TokenEvents {
  token: (info: TokenInfo) => void
  error: (error: AuthError) => void
}

export interface TokenProvider {
  /** A valid token; fetches one at most once however many callers wait (single flight). */
  getToken: (options?: { signal?: AbortSignal; forceRefresh?: boolean }) => Promise<string>
  /** Drops the cached token, but only if it is still `token` when given (a 401 on an old token must not discard a fresh one). */
  invalidate: (token?: string) => void
  /** Expiry of the cached token (epoch ms), if any. */
  expiresAt: () => number | undefined
  on: <E extends keyof TokenEvents>(event: E, callback: TokenEvents[E]) => Unsubscribe
}

export interface TokenProviderOptions {
  /**
   * The fetch used for `auth: { url }`.
   * @default `globalThis.fetch`
   */
  fetch?: typeof globalThis.fetch
  /**
   * The clock (tests).
   * @default `Date.now`
   */
  now?: () => number
  /**
   * Randomness for the backoff (tests).
   * @default `Math.random`
   */
  random?: () => number
}

interface Cached {
  token: string
  expiresAt: number
  refreshAt: number
}

export function isTokenProvider(value: unknown): value is TokenProvider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as TokenProvider).getToken === 'function' &&
    typeof (value as TokenProvider).invalidate === 'function'
  )
}

/**
 * @example
 * ```ts
 * const auth = createTokenProvider({ url: '/api/tandem-token' })
 * const token = await auth.getToken() // one fetch however many callers wait
 * auth.on('error', (e) => console.warn(e.code))
 * ```
 */
export function createTokenProvider(auth: AuthOptions, options: TokenProviderOptions = {}): TokenProvider {
  if (isTokenProvider(auth)) return auth
  const now = options.now ?? (() => Date.now())
  const random = options.random ?? Math.random
  const where = 'fetchToken' in auth ? undefined : endpointPath(auth.url)
  const source: FetchToken =
    'fetchToken' in auth
      ? auth.fetchToken
      : fromEndpoint(auth.url, where!, auth.init, options.fetch ?? globalThis.fetch.bind(globalThis))
  const emitter = createEmitter<TokenEvents>()
  const cfg = TOKEN_DEFAULTS

  const attemptSignal = createAttemptSignals({ share: false })
  let cached: Cached | undefined
  let flight: Promise<string> | undefined
  let failures = 0
  let cooldownUntil = 0
  let lastError: AuthError | undefined

  function store(response: TokenResponse, receivedAt: number): Cached {
    const lifetime = response.expiresIn * 1000
    // Refresh ahead by max(30 s, 10 %), but never more than half the lifetime of a short token.
    const margin = Math.min(Math.max(cfg.refreshMarginMs, lifetime * cfg.refreshMarginRatio), lifetime / 2)
    return { token: response.token, expiresAt: receivedAt + lifetime, refreshAt: receivedAt + lifetime - margin }
  }

  async function attemptFetch(): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const guard = attemptSignal(undefined, cfg.timeoutMs)
      try {
        const response = validate(await withSignal(source({ signal: guard.signal }), guard.signal))
        const receivedAt = now()
        cached = store(response, receivedAt)
        failures = 0
        lastError = undefined
        emitter.emit('token', { token: cached.token, expiresAt: cached.expiresAt, expiresIn: response.expiresIn })
        return cached.token
      } catch (cause) {
        const error = classify(cause, guard.timedOut(), where)
        const temporary = error.code === 'token_endpoint_unavailable'
        if (!temporary || attempt + 1 >= cfg.maxAttempts) throw error
        await sleep(fullJitter(attempt, cfg.baseDelayMs, cfg.maxDelayMs, random))
      } finally {
        guard.dispose()
      }
    }
  }

  function refresh(): Promise<string> {
    if (flight) return flight
    if (lastError && now() < cooldownUntil) return Promise.reject(lastError)
    flight = attemptFetch().then(
      (token) => {
        flight = undefined
        return token
      },
      (error: AuthError) => {
        flight = undefined
        failures++
        // Equal jitter: never near zero, so an app retrying in a loop cannot hammer the endpoint.
        const ceiling = Math.min(cfg.cooldownMaxMs, cfg.cooldownBaseMs * 2 ** (failures - 1))
        cooldownUntil = now() + ceiling / 2 + random() * (ceiling / 2)
        lastError = error
        emitter.emit('error', error)
        throw error
      },
    )
    return flight
  }

  return {
    getToken({ signal, forceRefresh = false } = {}) {
      const t = now()
      if (!forceRefresh && cached && t < cached.expiresAt) {
        if (t >= cached.refreshAt && !flight) {
          // Still valid: hand it out and refresh in the background (errors surface as 'error' events).
          refresh().catch(() => {})
        }
        return Promise.resolve(cached.token)
      }
      // forceRefresh keeps a still-valid token until a new one arrives (it may be refused or cooling down).
      return withSignal(refresh(), signal)
    },
    invalidate(token) {
      if (!token || cached?.token === token) cached = undefined
    },
    expiresAt: () => cached?.expiresAt,
    on: emitter.on,
  }
}

/**
 * The endpoint as errors name it: its path, never its query (which might carry a secret). A
 * relative URL needs a page to resolve against: outside one (Node, a worker without `location`)
 * it is refused at once, instead of failing every fetch as if the endpoint were down.
 */
function endpointPath(url: string): string {
  const page = (globalThis as { location?: { href?: string } }).location?.href
  let parsed: URL
  try {
    parsed = new URL(url, page)
  } catch {
    throw new ValidationError(
      'auth.url',
      page
        ? 'is not a URL'
        : `is relative (${url.split('?')[0]}) and there is no page to resolve it against: give an absolute URL, e.g. https://app.example${url.startsWith('/') ? '' : '/'}${url.split('?')[0]}`,
    )
  }
  refuseCredentials(parsed, 'auth.url')
  return `${parsed.host}${parsed.pathname}`
}

function fromEndpoint(
  url: string,
  where: string,
  init: RequestInit | undefined,
  fetchImpl: typeof globalThis.fetch,
): FetchToken {
  return async ({ signal }) => {
    let response: Response
    try {
      const method = (init?.method ?? 'POST').toUpperCase()
      response = await fetchImpl(url, {
        method,
        body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
        ...init,
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          ...Object.fromEntries(new Headers(init?.headers)),
        },
        signal,
        // A redirect (a session that expired, sent to a login page) is an answer, never followed.
        redirect: 'manual',
      })
    } catch (cause) {
      throw new NetworkError(`Token endpoint ${where} unreachable`, { code: 'network_error', cause })
    }
    const requestId = response.headers.get('x-request-id') ?? undefined
    const redirected = (response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect'
    // A body we do not read is cancelled: left alone (a stalled 503), it holds its socket until
    // garbage collection, and a browser has six per origin.
    if (redirected || !response.ok) void response.body?.cancel().catch(() => {})
    if (redirected) {
      throw new AuthError(`Token endpoint ${where} redirected (${response.status}), not followed`, {
        code: 'token_endpoint_error',
        status: response.status,
        requestId,
      })
    }
    if (!response.ok) {
      // classify() decides final vs temporary from the status.
      throw new TandemError(`Token endpoint ${where} answered ${response.status}`, {
        code: 'http_error',
        status: response.status,
        requestId,
      })
    }
    let body: unknown
    try {
      // A token answer is a few hundred bytes: the cap keeps a broken endpoint from filling memory.
      body = await limitBody(response, TOKEN_RESPONSE_MAX_BYTES).json()
    } catch (cause) {
      // Named by its media type (an HTML page: an SPA fallback, a captive portal), never its content.
      const type = /^[\w.+-]+\/[\w.+-]+/.exec(response.headers.get('content-type') ?? '')?.[0] ?? 'no content type'
      throw new AuthError(`Token endpoint ${where} answered ${response.status} ${type}, not a JSON token`, {
        code: 'invalid_token_response',
        status: response.status,
        requestId,
        cause,
      })
    }
    return body as TokenResponse
  }
}

function validate(response: unknown): TokenResponse {
  const r = response as Partial<TokenResponse> | null
  if (
    !r ||
    typeof r.token !== 'string' ||
    r.token.length === 0 ||
    typeof r.expiresIn !== 'number' ||
    !Number.isFinite(r.expiresIn) ||
    r.expiresIn <= 0
  ) {
    throw new AuthError('Token endpoint must answer { token, expiresIn > 0 }', { code: 'invalid_token_response' })
  }
  return r as TokenResponse
}

/**
 * Sorts failures by code (docs/realtime.md, "Token endpoint answers"): `token_refused` (401, 403),
 * `token_endpoint_error` (another 4xx, a redirect), `invalid_token_response` (200 but not a JSON
 * `{ token, expiresIn }`: an HTML page, garbage) and `token_endpoint_unavailable` (5xx, 408/429,
 * network, timeout: the only ones retried within one `getToken`). Every one surfaces as an
 * `AuthError`; messages are fixed strings, so nothing a callback threw (which might hold a
 * secret) leaks.
 */
function classify(cause: unknown, timedOut: boolean, where: string | undefined): AuthError {
  const endpoint = where ? `Token endpoint ${where}` : 'Token endpoint'
  if (cause instanceof AuthError) return cause
  const { status, requestId } = (cause ?? {}) as { status?: unknown; requestId?: unknown }
  const s = typeof status === 'number' ? status : undefined
  const rid = typeof requestId === 'string' ? requestId : undefined
  if (!timedOut && s !== undefined && s < 500 && s !== 408 && s !== 429) {
    const refused = s === 401 || s === 403
    return new AuthError(refused ? `${endpoint} refused (${s})` : `${endpoint} answered ${s}`, {
      code: refused ? 'token_refused' : 'token_endpoint_error',
      status: s,
      requestId: rid,
      cause,
    })
  }
  return new AuthError(timedOut ? `${endpoint} timed out` : `${endpoint} unavailable`, {
    code: 'token_endpoint_unavailable',
    status: s,
    requestId: rid,
    cause,
  })
}

/**
 * A refusal (401, 403): the one token failure a realtime connection does not retry. Every other
 * answer (an HTML page, a 404, a 5xx, garbage) may be a deploy or a captive portal passing.
 */
export function isTokenRefusal(error: unknown): boolean {
  const { code, status } = Object(error) as { code?: unknown; status?: unknown }
  return code === 'token_refused' || status === 401 || status === 403
}
