import { jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { DEFAULTS, decodeToken, mintToken, TokenError, verifyToken } from '../index.js'
import { APP, b64url, KID, NOW, OLD_KID, OLD_SECRET, SECRET } from './fixtures.js'

const keys = { [KID]: SECRET }
const mint = (extra: Partial<Parameters<typeof mintToken>[0]> = {}) =>
  mintToken({
    appId: APP,
    keyId: KID,
    secret: SECRET,
    subject: 'user_1',
    scope: ['maps', 'support:read'],
    now: NOW,
    ...extra,
  })

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(TokenError)
    expect((error as TokenError).status).toBe(401)
    return (error as TokenError).code
  }
  throw new Error('expected a TokenError')
}

describe('mintToken → verifyToken', () => {
  it('round-trips the claims', async () => {
    const { token, expiresIn } = await mint({ jti: 'jti_1' })
    expect(expiresIn).toBe(600)
    const claims = await verifyToken(token, { keys, appId: APP, now: NOW })
    const iat = Math.floor(NOW / 1000)
    expect(claims).toEqual({
      sub: 'user_1',
      app: APP,
      iat,
      exp: iat + 600,
      jti: 'jti_1',
      scope: ['maps', 'support:read'],
      kid: KID,
    })
  })

  it('writes the JWT shape: HS256 header with kid, scope as a space-separated string, random jti', async () => {
    const a = await mint()
    const b = await mint()
    const decoded = decodeToken(a.token)
    expect(decoded?.header).toEqual({ alg: 'HS256', typ: 'JWT', kid: KID })
    expect(decoded?.claims.scope).toBe('maps support:read')
    expect(decoded?.claims).toMatchObject({ aud: APP, app: APP })
    expect(decoded?.claims.jti).toMatch(/^[0-9a-f-]{36}$/)
    expect(decodeToken(b.token)?.claims.jti).not.toBe(decoded?.claims.jti)
  })

  it('accepts a space-separated scope string and an empty scope', async () => {
    const { token } = await mint({ scope: 'maps  realtime:subscribe:chat:*' })
    expect((await verifyToken(token, { keys, appId: APP, now: NOW })).scope).toEqual([
      'maps',
      'realtime:subscribe:chat:*',
    ])
    const empty = await mint({ scope: [] })
    expect((await verifyToken(empty.token, { keys, appId: APP, now: NOW })).scope).toEqual([])
  })

  it('accepts a key set given as an array', async () => {
    const { token } = await mint()
    await expect(
      verifyToken(token, { keys: [{ id: KID, secret: SECRET }], appId: APP, now: NOW }),
    ).resolves.toMatchObject({ sub: 'user_1' })
  })
})

describe('a third-party verifier', () => {
  it('checks a minted token with jose alone: HS256, aud = the app id', async () => {
    const { token } = await mint()
    const secret = new TextEncoder().encode(SECRET)
    const check = { algorithms: ['HS256'], currentDate: new Date(NOW) }
    const { payload } = await jwtVerify(token, secret, { ...check, audience: APP })
    expect(payload).toMatchObject({ aud: APP, sub: 'user_1' })
    await expect(jwtVerify(token, secret, { ...check, audience: 'app_other' })).rejects.toThrow(/aud/)
  })
})

describe('verifyToken refusals', () => {
  it('expires at exp (plus the clock tolerance)', async () => {
    const { token } = await mint({ ttlSeconds: 60 })
    await expect(verifyToken(token, { keys, appId: APP, now: NOW + 64_000 })).resolves.toBeTruthy()
    expect(await codeOf(verifyToken(token, { keys, appId: APP, now: NOW + 65_000 }))).toBe('token_expired')
    expect(await codeOf(verifyToken(token, { keys, appId: APP, now: NOW + 60_000, clockToleranceSeconds: 0 }))).toBe(
      'token_expired',
    )
  })

  it('refuses a token issued in the future beyond the tolerance', async () => {
    const { token } = await mint({ now: NOW + 10_000 })
    expect(await codeOf(verifyToken(token, { keys, appId: APP, now: NOW }))).toBe('token_not_yet_valid')
    await expect(verifyToken(token, { keys, appId: APP, now: NOW, clockToleranceSeconds: 10 })).resolves.toBeTruthy()
  })

  it('refuses a token for another app', async () => {
    const { token } = await mint({ appId: 'app_other' })
    expect(await codeOf(verifyToken(token, { keys, appId: APP, now: NOW }))).toBe('wrong_app')
  })

  it('refuses an unknown kid', async () => {
    const { token } = await mint({ keyId: 'key_unknown' })
    expect(await codeOf(verifyToken(token, { keys, appId: APP, now: NOW }))).toBe('unknown_key')
    // kid is looked up in a Map, never through Object.prototype.
    const proto = await mint({ keyId: '__proto__' })
    expect(await codeOf(verifyToken(proto.token, { keys, appId: APP, now: NOW }))).toBe('unknown_key')
  })

  it('refuses a tampered payload, signature or header', async () => {
    const { token } = await mint()
    const [h = '', p = '', s = ''] = token.split('.')
    const claims = decodeToken(token)?.claims ?? {}
    const elevated = b64url({ ...claims, scope: '*' })
    expect(await codeOf(verifyToken(`${h}.${elevated}.${s}`, { keys, appId: APP, now: NOW }))).toBe('invalid_signature')
    const flipped = s.slice(0, 10) + (s[10] === 'A' ? 'B' : 'A') + s.slice(11)
    expect(await codeOf(verifyToken(`${h}.${p}.${flipped}`, { keys, appId: APP, now: NOW }))).toBe('invalid_signature')
    // Non-canonical base64url in the last character decodes to the same bytes; still refused.
    const last = s.slice(-1)
    const sibling = String.fromCharCode(last.charCodeAt(0) + 1)
    expect(await codeOf(verifyToken(`${h}.${p}.${s.slice(0, -1)}${sibling}`, { keys, appId: APP, now: NOW }))).toBe(
      'malformed_token',
    )
    const otherKid = b64url({ alg: 'HS256', typ: 'JWT', kid: OLD_KID })
    expect(
      await codeOf(
        verifyToken(`${otherKid}.${p}.${s}`, { keys: { ...keys, [OLD_KID]: OLD_SECRET }, appId: APP, now: NOW }),
      ),
    ).toBe('invalid_signature')
  })

  it('refuses alg none and any algorithm but HS256 as malformed', async () => {
    const { token } = await mint()
    const [, p = '', s = ''] = token.split('.')
    for (const alg of ['none', 'None', 'HS512', 'RS256', '', null]) {
      const header = b64url({ alg, typ: 'JWT', kid: KID })
      expect(await codeOf(verifyToken(`${header}.${p}.${s}`, { keys, appId: APP, now: NOW }))).toBe('malformed_token')
      expect(await codeOf(verifyToken(`${header}.${p}.`, { keys, appId: APP, now: NOW }))).toBe('malformed_token')
    }
  })
})

describe('key rotation', () => {
  it('verifies a token signed with the old key while it is in the set, and not after', async () => {
    const old = await mint({ keyId: OLD_KID, secret: OLD_SECRET })
    const current = await mint()
    const both = [
      { id: OLD_KID, secret: OLD_SECRET },
      { id: KID, secret: SECRET },
    ]
    expect((await verifyToken(old.token, { keys: both, appId: APP, now: NOW })).kid).toBe(OLD_KID)
    expect((await verifyToken(current.token, { keys: both, appId: APP, now: NOW })).kid).toBe(KID)
    expect(await codeOf(verifyToken(old.token, { keys: { [KID]: SECRET }, appId: APP, now: NOW }))).toBe('unknown_key')
  })
})

describe('mintToken validation', () => {
  it('bounds ttlSeconds to 60..86400', async () => {
    await expect(mint({ ttlSeconds: DEFAULTS.minTtlSeconds })).resolves.toMatchObject({ expiresIn: 60 })
    await expect(mint({ ttlSeconds: DEFAULTS.maxTtlSeconds })).resolves.toMatchObject({ expiresIn: 86_400 })
    for (const ttl of [59, 86_401, 0, -1, 600.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(mint({ ttlSeconds: ttl })).rejects.toThrow(RangeError)
    }
  })

  it.each([
    ['appId', { appId: '' }],
    ['keyId', { keyId: '' }],
    ['secret', { secret: '' }],
    ['subject', { subject: '' }],
    ['subject', { subject: 42 as unknown as string }],
    ['scope', { scope: ['maps', 'support read'] }],
    ['scope', { scope: ['maps', ''] }],
    ['scope', { scope: [7] as unknown as string[] }],
    ['jti', { jti: '' }],
  ])('rejects a bad %s with a TypeError naming the field', async (field, extra) => {
    const error: unknown = await mint(extra).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect((error as Error).message).toContain(field)
    expect((error as Error).message).not.toContain(SECRET)
  })

  it('refuses invalid verify options with a TypeError', async () => {
    const { token } = await mint()
    await expect(verifyToken(token, { keys: { [KID]: '' }, appId: APP })).rejects.toThrow(TypeError)
    await expect(verifyToken(token, { keys, appId: '' })).rejects.toThrow(TypeError)
    await expect(verifyToken(token, { keys, appId: APP, clockToleranceSeconds: -1 })).rejects.toThrow(TypeError)
  })
})
