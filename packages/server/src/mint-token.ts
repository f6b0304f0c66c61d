import { SignJWT } from 'jose'
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
 * Mints a short-lived HS256 JWT (jose's `SignJWT`) for one end user. Claims: `sub`, `aud`
 * and `app` (both the app id), `iat`, `exp`, `jti`, `scope` (space-separated); header `kid`.
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
  // `aud` lets any JWT library check which app a token is for; `app` stays for Tandem's own
  // lookups (and for verifiers that read it).
  const token = await new SignJWT({ app: appId, scope: scope.join(' ') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keyId })
    .setSubject(subject)
    .setAudience(appId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .setJti(jti)
    .sign(new TextEncoder().encode(secret))
  return { token, expiresIn: ttl }
}
