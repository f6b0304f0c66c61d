import { withSignal } from './abort.js'
import { attemptSignal } from './attempt-signals.js'
import { fullJitter } from './backoff.js'
import { sleep } from './timers.js'
import { TOKEN_DEFAULTS } from './defaults.js'
import { createEmitter } from './events.js'
import type { AuthError } from './errors.js'
import {
  classify,
  endpointPath,
  fromEndpoint,
  validate,
  type FetchToken,
  type TokenResponse,
} from './token-endpoint.js'
import type { Unsubscribe } from './types.js'

export type { FetchToken, TokenResponse } from './token-endpoint.js'

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
        // At least half the step: never near zero, so an app retrying in a loop cannot hammer the endpoint.
        cooldownUntil = now() + fullJitter(failures - 1, cfg.cooldownBaseMs, cfg.cooldownMaxMs, random, 0.5)
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
