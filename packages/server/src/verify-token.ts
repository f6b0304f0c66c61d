import { DEFAULTS } from './defaults.js'
import { TokenError } from './errors.js'
import { hmacSha256Verify } from './hmac.js'
import { toKeyMap, type KeySet } from './key-set.js'
import { parseTokenParts } from './token-parts.js'
import { assertNonEmptyString, resolveNow } from './validate.js'

export interface TokenClaims {
  sub: string
  app: string
  iat: number
  exp: number
  jti: string
  scope: string[]
  /** The key id from the header: which key signed the token. */
  kid: string
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
   * Allowed clock skew for `exp` and `iat`.
   * @default 5
   */
  clockToleranceSeconds?: number
}

const isString = (v: unknown): v is string => typeof v === 'string'
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/**
 * Verifies a token and returns its claims. Bad options are programmer errors (TypeError);
 * anything wrong with the token itself, of any type or size, is a TokenError.
 *
 * @example
 * ```ts
 * const claims = await verifyToken(token, { appId, keys: { [keyId]: secret } })
 * console.log(claims.sub, claims.scope)
 * ```
 */
export async function verifyToken(token: string, options: VerifyTokenOptions): Promise<TokenClaims> {
  const keys = toKeyMap(options.keys)
  assertNonEmptyString(options.appId, 'appId')
  const nowSeconds = resolveNow(options.now) / 1000
  const tolerance = options.clockToleranceSeconds ?? DEFAULTS.clockToleranceSeconds
  if (!isTime(tolerance) || tolerance < 0) throw new TypeError('clockToleranceSeconds must be a non-negative number')

  // 1. Structure. The algorithm is pinned: 'none' or anything but HS256 is refused outright.
  const parts = parseTokenParts(token)
  if (parts === null) throw new TokenError('malformed_token')
  const { header, claims } = parts
  const { kid } = header
  const { sub, app, iat, exp, jti, scope } = claims
  if (
    header.alg !== 'HS256' ||
    !isNonEmptyString(kid) ||
    !isNonEmptyString(sub) ||
    !isNonEmptyString(app) ||
    !isTime(iat) ||
    !isTime(exp) ||
    !isNonEmptyString(jti) ||
    !isString(scope)
  ) {
    throw new TokenError('malformed_token')
  }

  // 2. Key, 3. signature: nothing below is trusted until the signature checks out.
  const secret = keys.get(kid)
  if (secret === undefined) throw new TokenError('unknown_key')
  let valid: boolean
  try {
    valid = await hmacSha256Verify(secret, parts.signature, parts.signingInput)
  } catch {
    valid = false
  }
  if (!valid) throw new TokenError('invalid_signature')

  // 4. Audience, 5. lifetime. Tolerance applies both ways, as clocks drift both ways.
  if (app !== options.appId) throw new TokenError('wrong_app')
  if (nowSeconds >= exp + tolerance) throw new TokenError('token_expired')
  if (iat > nowSeconds + tolerance) throw new TokenError('token_not_yet_valid')

  return { sub, app, iat, exp, jti, scope: scope.split(' ').filter(Boolean), kid }
}
