// The hostile-token table: one definition, checked against verifyToken here and against the
// emulator's REST and socket (packages/emulator/src/__tests__/token-refusals.test.ts).
import { createHmac } from 'node:crypto'
import { DEFAULTS } from '../defaults.js'
import type { TokenErrorCode } from '../errors.js'

export interface HostileKey {
  appId: string
  keyId: string
  secret: string
}

export interface HostileToken {
  name: string
  token: string
  /** The refusal, or null where the token must be accepted. */
  code: TokenErrorCode | null
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** Signs encoded segments by hand (node:crypto, not jose): for what jose would never mint. */
export function signSegments(header: string, payload: string, secret: string, hash = 'sha256'): string {
  return `${header}.${payload}.${createHmac(hash, secret).update(`${header}.${payload}`).digest('base64url')}`
}

const sign = (header: unknown, claims: unknown, secret: string, hash?: string) =>
  signSegments(b64(header), b64(claims), secret, hash)

/** Every case for `key`, with times relative to `nowMs` (whole seconds, as tokens carry). */
export function hostileTokens(key: HostileKey, nowMs: number): HostileToken[] {
  const { appId, keyId, secret } = key
  const now = Math.floor(nowMs / 1000)
  const tolerance = DEFAULTS.clockToleranceSeconds
  const header = { alg: 'HS256', typ: 'JWT', kid: keyId }
  const claims = {
    sub: 'user_1',
    app: appId,
    aud: appId,
    iat: now,
    exp: now + 600,
    jti: 'jti_1',
    scope: 'maps realtime',
  }
  const { exp: _exp, ...noExp } = claims
  const { sub: _sub, ...noSub } = claims
  const { aud: _aud, ...noAud } = claims
  const valid = sign(header, claims, secret)
  const [h = '', p = '', s = ''] = valid.split('.')
  // Within the tolerance by a margin a slow machine cannot eat; beyond it the same way.
  const expiredAt = (ago: number) => ({ ...claims, iat: now - ago - 600, exp: now - ago })
  const cases: Array<[string, string, TokenErrorCode | null]> = [
    ['valid', valid, null],
    ['expired within the tolerance', sign(header, expiredAt(1), secret), null],
    ['expired beyond the tolerance', sign(header, expiredAt(tolerance + 5), secret), 'token_expired'],
    ['nbf in the future', sign(header, { ...claims, nbf: now + 60 }, secret), 'token_not_yet_valid'],
    [
      'iat in the future beyond the tolerance',
      sign(header, { ...claims, iat: now + 60 }, secret),
      'token_not_yet_valid',
    ],
    ['alg none', `${b64({ ...header, alg: 'none' })}.${p}.`, 'malformed_token'],
    ['alg HS512', sign({ ...header, alg: 'HS512' }, claims, secret, 'sha512'), 'malformed_token'],
    ['alg RS256', `${b64({ ...header, alg: 'RS256' })}.${p}.${s}`, 'malformed_token'],
    ['missing exp', sign(header, noExp, secret), 'malformed_token'],
    ['missing sub', sign(header, noSub, secret), 'malformed_token'],
    ['missing aud', sign(header, noAud, secret), 'malformed_token'],
    ['wrong aud', sign(header, { ...claims, aud: 'app_someone_else' }, secret), 'wrong_app'],
    ['tampered payload', `${h}.${b64({ ...claims, scope: '*' })}.${s}`, 'invalid_signature'],
    [
      'tampered signature',
      `${h}.${p}.${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`,
      'invalid_signature',
    ],
    ['signed with another secret', sign(header, claims, `${secret}_not`), 'invalid_signature'],
    ['unknown kid', sign({ ...header, kid: 'key_unknown' }, claims, secret), 'unknown_key'],
    ['malformed', `${h}.${p}`, 'malformed_token'],
  ]
  return cases.map(([name, token, code]) => ({ name, token, code }))
}
