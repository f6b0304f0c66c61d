import { jwtVerify, type JWTHeaderParameters, type JWTPayload } from 'jose'
import { hasCanonicalHs256Signature, isCompactJws } from './compact-jws.js'
import { DEFAULTS } from './defaults.js'
import { TokenError } from './errors.js'
import { toKeyMap, type KeySet } from './key-set.js'
import { toTokenError } from './token-error.js'
import {
  assertNonEmptyString,
  customerSubjectProblem,
  profileProblem,
  resolveNow,
  type TokenProfile,
} from './validate.js'

export interface TokenClaims {
  sub: string
  app: string
  iat: number
  exp: number
  jti: string
  scope: string[]
  /** The key id from the header: which key signed the token. */
  kid: string
  /** Who the user is (`name`, `email`), when the token carries a `profile` claim. */
  profile?: TokenProfile
}

export interface VerifyTokenOptions {
  keys: KeySet
  appId: string
  /**
   * Current time in ms; for tests.
   * @default `Date.now()`
   */
  now?: number
  /**
   * Allowed clock skew for `exp`, `nbf` and `iat`.
   * @default 5 (`DEFAULTS.clockToleranceSeconds`)
   */
  clockToleranceSeconds?: number
}

/** The registered claims every Tandem token carries; `aud` is required through `audience`. */
const REQUIRED_CLAIMS = ['exp', 'iat', 'sub', 'jti']

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0

/**
 * Verifies a token with jose's `jwtVerify` and returns its claims: HS256 only, `aud` must be
 * the app id, and `exp`, `nbf` and `iat` are checked with one clock tolerance. Bad options
 * are programmer errors (TypeError); anything wrong with the token itself, of any type or
 * size, is a TokenError.
 *
 * @example
 * ```ts
 * const claims = await verifyToken(token, { appId, keys: { [keyId]: secret } })
 * console.log(claims.sub, claims.scope)
 * ```
 */
export async function verifyToken(token: string, options: VerifyTokenOptions): Promise<TokenClaims> {
  const keys = toKeyMap(options.keys)
  const { appId } = options
  assertNonEmptyString(appId, 'appId')
  const currentDate = new Date(resolveNow(options.now))
  const tolerance = options.clockToleranceSeconds ?? DEFAULTS.clockToleranceSeconds
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError('clockToleranceSeconds must be a non-negative number')
  }
  if (!isCompactJws(token) || !hasCanonicalHs256Signature(token)) throw new TokenError('malformed_token')

  // jose refuses any alg but HS256 before it asks for a key; the key is looked up in a Map,
  // so a `kid` such as `__proto__` never resolves through Object.prototype.
  const key = (header: JWTHeaderParameters): Uint8Array => {
    if (!isNonEmptyString(header.kid)) throw new TokenError('malformed_token')
    const secret = keys.get(header.kid)
    if (secret === undefined) throw new TokenError('unknown_key')
    return new TextEncoder().encode(secret)
  }
  let payload: JWTPayload
  let kid: string
  try {
    const verified = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      audience: appId,
      requiredClaims: REQUIRED_CLAIMS,
      clockTolerance: tolerance,
      // Makes jose check `iat` too: one from the future beyond the tolerance is refused.
      maxTokenAge: DEFAULTS.maxTtlSeconds,
      currentDate,
    })
    payload = verified.payload
    kid = verified.protectedHeader.kid as string
  } catch (error) {
    throw toTokenError(error)
  }

  // Tandem's own claims; jose has checked the registered ones (numbers, presence, times).
  const { sub, app, iat, exp, jti, scope, profile } = payload
  if (!isNonEmptyString(sub) || !isNonEmptyString(app) || !isNonEmptyString(jti) || typeof scope !== 'string') {
    throw new TokenError('malformed_token')
  }
  if (app !== appId) throw new TokenError('wrong_app')
  const scopes = scope.split(' ').filter(Boolean)
  // What mintToken refuses to write, verifyToken refuses to read: a customer id that could not be
  // a channel name, a profile of the wrong shape.
  if (customerSubjectProblem(sub, scopes) || (profile !== undefined && profileProblem(profile))) {
    throw new TokenError('malformed_token')
  }
  return {
    sub,
    app,
    iat: iat as number,
    exp: exp as number,
    jti,
    scope: scopes,
    kid,
    ...(profile !== undefined ? { profile: profile as TokenProfile } : {}),
  }
}
