import { SignJWT } from 'jose'
import {
  assertNonEmptyString,
  customerSubjectProblem,
  normalizeProfile,
  normalizeScope,
  resolveNow,
  resolveTtl,
  type TokenProfile,
} from './validate.js'

export interface MintTokenOptions {
  appId: string
  keyId: string
  /** The key secret. Stays on the backend; only its signature leaves. */
  secret: string
  /**
   * The end user the token acts for. With the `support:customer` scope it is the customer id,
   * which must match `CUSTOMER_ID` of @tandem/contract (1–128 of `A-Z a-z 0-9 _ . @ -`).
   */
  subject: string
  /** Capabilities; a string is read as space-separated. */
  scope: string[] | string
  /**
   * Who the user is, written as the `profile` claim: a support customer's name and email, shown
   * to agents on the conversations the customer starts.
   */
  profile?: TokenProfile
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
 * and `app` (both the app id), `iat`, `exp`, `jti`, `scope` (space-separated), and `profile`
 * when given; header `kid`.
 *
 * @example
 * ```ts
 * const { token, expiresIn } = await mintToken({ appId, keyId, secret, subject: 'user_42', scope: ['maps'] })
 * // A support customer: the subject is the customer id, the profile what agents see.
 * await mintToken({ appId, keyId, secret, subject: 'cus_42', scope: ['support:customer'], profile: { name: 'Ada' } })
 * ```
 */
export async function mintToken(options: MintTokenOptions): Promise<{ token: string; expiresIn: number }> {
  const { appId, keyId, secret, subject } = options
  assertNonEmptyString(appId, 'appId')
  assertNonEmptyString(keyId, 'keyId')
  assertNonEmptyString(secret, 'secret')
  assertNonEmptyString(subject, 'subject')
  const scope = normalizeScope(options.scope)
  const customerProblem = customerSubjectProblem(subject, scope)
  if (customerProblem) throw new TypeError(customerProblem)
  const profile = normalizeProfile(options.profile)
  const ttl = resolveTtl(options.ttlSeconds)
  const jti = options.jti ?? globalThis.crypto.randomUUID()
  assertNonEmptyString(jti, 'jti')

  // Whole seconds, as JWT NumericDate; exp derives from the rounded iat so exp - iat = ttl.
  const iat = Math.floor(resolveNow(options.now) / 1000)
  // `aud` lets any JWT library check which app a token is for; `app` stays for Tandem's own
  // lookups (and for verifiers that read it).
  const token = await new SignJWT({ app: appId, scope: scope.join(' '), ...(profile ? { profile } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keyId })
    .setSubject(subject)
    .setAudience(appId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .setJti(jti)
    .sign(new TextEncoder().encode(secret))
  return { token, expiresIn: ttl }
}
