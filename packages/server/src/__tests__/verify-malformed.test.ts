import { describe, expect, it } from 'vitest'
import { decodeToken, mintToken, TokenError, verifyToken } from '../index.js'
import { APP, b64url, KID, NOW, SECRET, seeded } from './fixtures.js'
import { signSegments as signWith } from './hostile-tokens.js'

const keys = { [KID]: SECRET }
const header = b64url({ alg: 'HS256', typ: 'JWT', kid: KID })
const claims = { sub: 'u', app: APP, aud: APP, iat: NOW / 1000, exp: NOW / 1000 + 600, jti: 'j', scope: 'maps' }
const sig = b64url('x'.repeat(32))
// Signed with the real key: jose checks the signature before it reads the claims, so an
// unsigned broken payload is an invalid_signature; these are authentic and still malformed.
const signSegments = (h: string, p: string) => signWith(h, p, SECRET)
const withClaims = (c: unknown) => signSegments(header, b64url(c))
const { sub: _sub, ...noSub } = claims

const MALFORMED: Array<[string, unknown]> = [
  ['empty string', ''],
  ['one segment', 'abc'],
  ['two segments', 'abc.def'],
  ['four segments', `${header}.${b64url(claims)}.${sig}.x`],
  ['three empty segments', '..'],
  ['bad base64 characters', `${header}.$$$.${sig}`],
  ['base64 with padding', `${header}.${b64url(claims)}=.${sig}`],
  ['impossible base64 length', signSegments(header, 'a')],
  ['header not JSON', `${b64url('nope')}.${b64url(claims)}.${sig}`],
  ['header a JSON array', `${b64url([1])}.${b64url(claims)}.${sig}`],
  ['header JSON null', `${b64url('null')}.${b64url(claims)}.${sig}`],
  ['payload a JSON number', withClaims(42)],
  ['payload a JSON string', withClaims('"claims"')],
  ['payload invalid UTF-8', signSegments(header, Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url'))],
  ['missing sub', withClaims(noSub)],
  ['numeric exp as a string', withClaims({ ...claims, exp: String(claims.exp) })],
  ['iat null', withClaims({ ...claims, iat: null })],
  ['scope as an array', withClaims({ ...claims, scope: ['maps'] })],
  ['app a number', withClaims({ ...claims, app: 1 })],
  ['kid missing', signSegments(b64url({ alg: 'HS256', typ: 'JWT' }), b64url(claims))],
  ['kid a number', signSegments(b64url({ alg: 'HS256', kid: 1 }), b64url(claims))],
  ['huge string', 'a'.repeat(1_000_000)],
  ['huge well-formed', `${header}.${b64url({ ...claims, pad: 'x'.repeat(20_000) })}.${sig}`],
  ['deeply nested JSON', withClaims('['.repeat(5_000))],
  ['non-string: number', 12345],
  ['non-string: null', null],
  ['non-string: undefined', undefined],
  ['non-string: object', { token: 'x' }],
]

describe('verifyToken on malformed input', () => {
  it.each(MALFORMED)('%s → malformed_token', async (_name, token) => {
    const error: unknown = await verifyToken(token as string, { keys, appId: APP, now: NOW }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TokenError)
    expect((error as TokenError).code).toBe('malformed_token')
  })

  it('only ever throws TokenError for random input (seeded, bounded)', async () => {
    const random = seeded(0x7a11de)
    const { token: valid } = await mintToken({
      appId: APP,
      keyId: KID,
      secret: SECRET,
      subject: 'u',
      scope: ['maps'],
      now: NOW,
    })
    const alphabet = 'ABCxyz019-_.=+/ {}":,\u00e9\u0000'
    const pick = (n: number) => Math.floor(random() * n)
    for (let i = 0; i < 400; i++) {
      let input: string
      switch (i % 4) {
        case 0: // random characters
          input = Array.from({ length: pick(120) }, () => alphabet[pick(alphabet.length)]).join('')
          break
        case 1: {
          // a valid token with a few characters mutated
          const chars = [...valid]
          for (let m = 0; m <= pick(3); m++) chars[pick(chars.length)] = alphabet[pick(alphabet.length)] ?? 'A'
          input = chars.join('')
          break
        }
        case 2: // a valid token truncated
          input = valid.slice(0, pick(valid.length))
          break
        default: // random JSON-ish segments
          input = [
            header,
            b64url(Array.from({ length: pick(40) }, () => alphabet[pick(alphabet.length)]).join('')),
            sig,
          ].join('.')
      }
      const outcome: unknown = await verifyToken(input, { keys, appId: APP, now: NOW }).catch((e: unknown) => e)
      if (!(outcome instanceof TokenError)) {
        // A mutation may leave the token intact (e.g. replacing a char by itself).
        expect(input).toBe(valid)
      }
      expect(() => decodeToken(input)).not.toThrow()
    }
  })
})

describe('decodeToken', () => {
  it('decodes without verifying and never throws', async () => {
    const { token } = await mintToken({ appId: APP, keyId: KID, secret: SECRET, subject: 'u', scope: 'maps', now: NOW })
    expect(decodeToken(token)?.claims).toMatchObject({ app: APP, sub: 'u', scope: 'maps' })
    expect(decodeToken(`${token.split('.').slice(0, 2).join('.')}.`)?.claims.app).toBe(APP)
    for (const [, bad] of MALFORMED.slice(0, 14)) expect(decodeToken(bad as string)).toBeNull()
  })
})
