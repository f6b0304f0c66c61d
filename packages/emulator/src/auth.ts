// Who is calling: `Authorization: Bearer <credential>`, a JWT verified with the app's keys or
// (server-side only) the app's raw key `<keyId>:<secret>`. Never a credential in the URL.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { isCredentialParam } from '@tandem/contract'
import { decodeToken, TokenError, verifyToken, type TokenClaims, type TokenProfile } from '@tandem/server'
import { refusal, SERVICE_ONLY_MESSAGE, type AccessOptions } from './access.js'
import { HttpError } from './http-errors.js'
import type { EmulatorApp, Service } from './shared-types.js'

export interface Principal {
  app: string
  /**
   * What it proved itself with: a token, the app's raw key (whose subject reads `key:<keyId>`),
   * or nothing (`none`: ANONYMOUS, on a token-free route only).
   */
  via: 'token' | 'key' | 'none'
  subject: string
  scope: string[]
  /** Who the user is, from the token's `profile` claim (a customer's name and email). */
  profile?: TokenProfile
}

/** The caller of a token-free route (`RouteHandler.public`) that sent no credential: no app, no scope. */
export const ANONYMOUS: Principal = Object.freeze({ app: '', via: 'none', subject: '', scope: [] })

/** Whether a request carries a credential anywhere: an Authorization header or one in its query. */
export const carriesCredential = (req: IncomingMessage, query: URLSearchParams): boolean =>
  req.headers.authorization !== undefined || hasCredentialParam(query)

export type AuthResult = { ok: true; principal: Principal } | { ok: false; error: HttpError; app?: string }

const unauthorized = (code: string, message: string) =>
  new HttpError(401, code, message, undefined, { 'WWW-Authenticate': 'Bearer' })

export async function authenticate(
  req: IncomingMessage,
  query: URLSearchParams,
  apps: ReadonlyMap<string, EmulatorApp>,
): Promise<AuthResult> {
  // A key in a URL is refused whatever else the request carries: URLs reach access logs, history
  // and Referer headers (DESIGN.md §2). A page gets the browser refusal, so it cannot probe.
  if (hasCredentialParam(query)) return { ok: false, error: isBrowser(req.headers) ? keyFromBrowser() : keyInUrl() }
  const header = req.headers.authorization
  if (header === undefined || header === '')
    return { ok: false, error: unauthorized('missing_token', 'Send Authorization: Bearer <token>.') }
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header)
  if (!match?.[1]) {
    return { ok: false, error: unauthorized('missing_token', 'The Authorization header must be "Bearer <token>".') }
  }
  const credential = match[1]
  if (isRawKey(credential)) return verifyRawKey(credential, isBrowser(req.headers), apps)
  return verifyBearer(credential, apps)
}

/**
 * `?key=` (where raw keys used to travel) or any other credential parameter of the contract's
 * (`api_key`, `token`, …: the names core refuses in a URL it is given).
 */
export const hasCredentialParam = (query: URLSearchParams): boolean => [...query.keys()].some(isCredentialParam)

/**
 * A raw key `<keyId>:<secret>` from a JWT, by shape: a JWT (compact JWS) is base64url parts
 * joined by dots and can never hold a colon, and a raw key always has one after its key id.
 */
export const isRawKey = (credential: string): boolean => credential.includes(':')

/** A credential in the URL, from a server: where it goes instead, never the value. */
export const keyInUrl = () =>
  unauthorized(
    'key_in_url',
    'Credentials never go in a URL: send them in the Authorization header, "Bearer <keyId>:<secret>" ' +
      'from a server or "Bearer <token>".',
  )

/**
 * The headers that mark a request from a browser: the one rule for REST and the socket upgrade.
 * `Origin` comes with every CORS request and every non-GET one. Fetch metadata (`Sec-Fetch-Site`,
 * `-Dest`, `-User`) comes with every request, Origin or not, but only to a secure destination
 * (https, localhost): a page on `http://192.168.1.20:5173` sends none, and a same-origin GET of
 * its own has no Origin either. It does send `Referer` (unless the page turns it off), so that
 * counts too. `Sec-Fetch-Mode` alone does not: Node's `fetch` (undici) sends it on every request,
 * and server-side callers are who raw keys are for. Neither Node's fetch nor `ws` sends the others.
 */
export const BROWSER_HEADERS = ['origin', 'referer', 'sec-fetch-site', 'sec-fetch-dest', 'sec-fetch-user'] as const
export const isBrowser = (headers: IncomingHttpHeaders): boolean =>
  BROWSER_HEADERS.some((name) => headers[name] !== undefined)

/** A raw key from a browser, refused before the key is even checked (so a page cannot probe one). */
export const keyFromBrowser = () =>
  new HttpError(
    403,
    'key_not_allowed_in_browser',
    'Raw keys are for server-side callers; browsers must use short-lived tokens.',
  )

export type TokenCheck =
  { ok: true; app: EmulatorApp; claims: TokenClaims } | { ok: false; code: string; message: string; app?: string }

/**
 * The emulator's one token check, for REST and the socket alike: the unverified `app` claim
 * picks the app's keys, then `verifyToken` decides with its one clock tolerance
 * (`DEFAULTS.clockToleranceSeconds` of @tandem/server).
 */
export async function checkToken(
  token: string,
  apps: ReadonlyMap<string, EmulatorApp>,
  now = Date.now(),
): Promise<TokenCheck> {
  const decoded = decodeToken(token)
  if (decoded === null) return { ok: false, code: 'malformed_token', message: 'The token is malformed.' }
  const appId = decoded.claims.app
  const app = typeof appId === 'string' ? apps.get(appId) : undefined
  // Deliberately no app id in the message: it came from an unverified token.
  if (!app) return { ok: false, code: 'unknown_app', message: 'The token names an app this emulator does not know.' }
  try {
    return { ok: true, app, claims: await verifyToken(token, { keys: app.keys, appId: app.appId, now }) }
  } catch (err) {
    // TokenError messages are fixed strings that never quote the token.
    if (err instanceof TokenError) return { ok: false, code: err.code, message: err.message, app: app.appId }
    throw err
  }
}

async function verifyBearer(token: string, apps: ReadonlyMap<string, EmulatorApp>): Promise<AuthResult> {
  const checked = await checkToken(token, apps)
  if (!checked.ok) {
    const error = unauthorized(checked.code, checked.message)
    return checked.app === undefined ? { ok: false, error } : { ok: false, error, app: checked.app }
  }
  const { app, claims } = checked
  const { sub: subject, scope, profile } = claims
  return { ok: true, principal: { app: app.appId, via: 'token', subject, scope, ...(profile ? { profile } : {}) } }
}

function verifyRawKey(raw: string, fromBrowser: boolean, apps: ReadonlyMap<string, EmulatorApp>): AuthResult {
  // Refuse before checking the key, so a browser cannot probe whether a leaked key works.
  if (fromBrowser) return { ok: false, error: keyFromBrowser() }
  const colon = raw.indexOf(':')
  const keyId = colon > 0 ? raw.slice(0, colon) : ''
  const secret = colon > 0 ? raw.slice(colon + 1) : ''
  for (const app of apps.values()) {
    const key = app.keys.find((k) => k.id === keyId)
    if (key && sameSecret(key.secret, secret)) {
      // A raw key is the app's own credential: it may do anything the app may.
      return { ok: true, principal: { app: app.appId, via: 'key', subject: `key:${key.id}`, scope: ['*'] } }
    }
  }
  return { ok: false, error: unauthorized('invalid_key', 'The key is not valid.') }
}

function sameSecret(expected: string, given: string): boolean {
  // Hash first so the comparison is constant-time whatever the lengths.
  const a = createHash('sha256').update(expected).digest()
  const b = createHash('sha256').update(given).digest()
  return timingSafeEqual(a, b)
}

/** The capability a request needs (docs/architecture.md, "Tokens and scopes"). */
export function requiredCapability(service: Service, method: string): string {
  if (service === 'maps') return 'maps'
  const read = method === 'GET' || method === 'HEAD'
  return `${service}:${read ? 'read' : 'write'}`
}

export function checkScope(principal: Principal, required: string, options?: AccessOptions): HttpError | undefined {
  // scopeAllows (in refusal) also lets `X:write` imply `X:read`, as the architecture table says for support.
  const why = refusal(principal, required, options)
  if (why === undefined) return undefined
  if (why === 'service_only') return new HttpError(403, 'forbidden', SERVICE_ONLY_MESSAGE, [{ required }])
  return new HttpError(403, 'insufficient_scope', `This request needs the "${required}" capability.`, [{ required }])
}
