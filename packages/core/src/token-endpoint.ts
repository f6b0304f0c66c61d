// The app's token endpoint (`auth: { url }`): how it is called, and what each answer means
// (docs/realtime.md, "Token endpoint answers").
import { DEV } from '@tandem/contract/dev'
import { readCapped } from './body-limit.js'
import { AuthError, NetworkError, TandemError, ValidationError } from './errors.js'
import { refuseCredentials } from './url-rules.js'

export interface TokenResponse {
  token: string
  /** Seconds from now. The expiry is computed from our own clock at receipt, so skew cannot matter. */
  expiresIn: number
}

export type FetchToken = (context: { signal: AbortSignal }) => Promise<TokenResponse>

/** A token answer is a few hundred bytes: the cap keeps a broken endpoint from filling memory. */
const TOKEN_RESPONSE_MAX_BYTES = 65_536

/**
 * The endpoint as errors name it: its path, never its query (which might carry a secret). A
 * relative URL needs a page to resolve against: outside one (Node, a worker without `location`)
 * it is refused at once, instead of failing every fetch as if the endpoint were down.
 */
export function endpointPath(url: string): string {
  const page = (globalThis as { location?: { href?: string } }).location?.href
  let parsed: URL
  try {
    parsed = new URL(url, page)
  } catch {
    throw new ValidationError(
      'auth.url',
      DEV &&
        process.env.NODE_ENV !== 'production' &&
        (page
          ? 'is not a URL'
          : `is relative (${url.split('?')[0]}) and there is no page to resolve it against: give an absolute URL, e.g. https://app.example${url.startsWith('/') ? '' : '/'}${url.split('?')[0]}`),
      page ? 'not a URL' : 'relative',
    )
  }
  refuseCredentials(parsed, 'auth.url')
  return `${parsed.host}${parsed.pathname}`
}

export function fromEndpoint(
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
      body = JSON.parse(
        await readCapped(response, TOKEN_RESPONSE_MAX_BYTES, () =>
          RangeError(`larger than ${TOKEN_RESPONSE_MAX_BYTES} bytes`),
        ),
      )
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

export function validate(response: unknown): TokenResponse {
  const r = response as Partial<TokenResponse> | null
  if (
    !r ||
    typeof r.token !== 'string' ||
    r.token.length === 0 ||
    typeof r.expiresIn !== 'number' ||
    !Number.isFinite(r.expiresIn) ||
    r.expiresIn <= 0
  ) {
    throw new AuthError(
      DEV && process.env.NODE_ENV !== 'production'
        ? 'Token endpoint must answer { token, expiresIn > 0 }'
        : 'Token endpoint: invalid_token_response',
      { code: 'invalid_token_response' },
    )
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
export function classify(cause: unknown, timedOut: boolean, where: string | undefined): AuthError {
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
