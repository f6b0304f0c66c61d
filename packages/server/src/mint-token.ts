import { encodeBase64Url, encodeBase64UrlText } from './base64url.js'
import { hmacSha256 } from './hmac.js'
import { assertNonEmptyString, normalizeScope, resolveNow, resolveTtl } from './validate.js'

export interface MintTokenOptions {
  appId: string
  keyId: string
  /** The key secret. Stays on the backend; only its signature leaves. */
  secret: string
  /** The end user the token acts for. */
  subject: string
  /** Capabilities; a string is read as space-separated. */
  scope: string[] | string
  /**
   * Lifetime in seconds, 60 to 86 400.
   * @default 600
   */
  ttlSeconds?: number
  /**
   * Current time in ms; for tests.
   * @default `Date.now()`
   */
  now?: number
  /**
   * Token id.
   * @default a random id
   */
  jti?: string
}

/**
 * Mints a short-lived HS256 JWT for one end user.
 *
 * @example
 * ```ts
 * const { token, expiresIn } = await mintToken({ appId, keyId, secret, subject: 'user_42', scope: ['maps'] })
 * ```
 */
export async function mintToken(options: MintTokenOptions): Promise<{ token: string; expiresIn: number }> {
  const { appId, keyId, secret, subject } = options
  assertNonEmptyString(appId, 'appId')
  assertNonEmptyString(keyId, 'keyId')
  assertNonEmptyString(secret, 'secret')
  assertNonEmptyString(subject, 'subject')
  const scope = normalizeScope(options.scope)
  const ttl = resolveTtl(options.ttlSeconds)
  const jti = options.jti ?? globalThis.crypto.randomUUID()
  assertNonEmptyString(jti, 'jti')

  // Whole seconds, as JWT NumericDate; exp derives from the rounded iat so exp - iat = ttl.
  const iat = Math.floor(resolveNow(options.now) / 1000)
  const header = { alg: 'HS256', typ: 'JWT', kid: keyId }
  const claims = { sub: subject, app: appId, iat, exp: iat + ttl, jti, scope: scope.join(' ') }

  const signingInput = `${encodeBase64UrlText(JSON.stringify(header))}.${encodeBase64UrlText(JSON.stringify(claims))}`
  const signature = encodeBase64Url(await hmacSha256(secret, signingInput))
  return { token: `${signingInput}.${signature}`, expiresIn: ttl }
}
