// The customer side of tokens (issue 29): a `profile` claim, and a customer token's subject that
// must be a CUSTOMER_ID, through a real jose round trip.
import { CUSTOMER_SCOPE, LIMITS } from '@tandem/contract'
import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { createTokenHandler, decodeToken, mintToken, TokenError, verifyToken, type AuthorizeResult } from '../index.js'
import { APP, KID, NOW, SECRET } from './fixtures.js'

const keys = { [KID]: SECRET }
const mint = (extra: Partial<Parameters<typeof mintToken>[0]> = {}) =>
  mintToken({ appId: APP, keyId: KID, secret: SECRET, subject: 'cus_1', scope: [CUSTOMER_SCOPE], now: NOW, ...extra })
const verify = (token: string) => verifyToken(token, { keys, appId: APP, now: NOW })

/** A token signed with the right key whose claims mintToken would never write. */
async function forged(claims: Record<string, unknown>, subject = 'cus_1'): Promise<string> {
  const iat = Math.floor(NOW / 1000)
  return new SignJWT({ app: APP, scope: CUSTOMER_SCOPE, ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: KID })
    .setSubject(subject)
    .setAudience(APP)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 600)
    .setJti('jti_forged')
    .sign(new TextEncoder().encode(SECRET))
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(TokenError)
  return (error as TokenError).code
}

describe('the profile claim', () => {
  it('round-trips name and email, and is absent when not given', async () => {
    const { token } = await mint({ profile: { name: 'Ada Lovelace', email: 'ada@example.com' } })
    expect(decodeToken(token)?.claims.profile).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' })
    expect(await verify(token)).toMatchObject({
      sub: 'cus_1',
      scope: [CUSTOMER_SCOPE],
      profile: { name: 'Ada Lovelace', email: 'ada@example.com' },
    })
    const bare = await verify((await mint()).token)
    expect(bare).not.toHaveProperty('profile')
    expect(await verify((await mint({ profile: { name: 'Ada' } })).token)).toMatchObject({ profile: { name: 'Ada' } })
  })

  it('mintToken throws a TypeError for a bad profile, naming the field and never the value', async () => {
    const long = 'x'.repeat(LIMITS.personName + 1)
    for (const profile of [
      { name: long },
      { name: '' },
      { name: 42 },
      { email: 'not-an-address' },
      { email: 'a b@example.com' },
      { email: `${'a'.repeat(LIMITS.email)}@example.com` },
      { role: 'admin' },
      'Ada',
      null,
    ]) {
      const error = await mint({ profile: profile as never }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error, JSON.stringify(profile)).toBeInstanceOf(TypeError)
      expect((error as Error).message).toMatch(/^profile/)
      expect((error as Error).message).not.toContain('not-an-address')
    }
  })

  it('verifyToken refuses a token whose profile claim is malformed', async () => {
    expect(await refusal(verify(await forged({ profile: 'Ada' })))).toBe('malformed_token')
    expect(await refusal(verify(await forged({ profile: { email: 'nope' } })))).toBe('malformed_token')
    expect(await refusal(verify(await forged({ profile: { name: 'x'.repeat(LIMITS.personName + 1) } })))).toBe(
      'malformed_token',
    )
    expect(await verify(await forged({ profile: { name: 'Ada' } }))).toMatchObject({ profile: { name: 'Ada' } })
  })
})

describe("a customer token's subject", () => {
  it('must be a CUSTOMER_ID when the scope holds support:customer', async () => {
    for (const subject of ['cus 1', 'cus/1', 'a:b', 'x'.repeat(129)]) {
      await expect(mint({ subject }), subject).rejects.toThrow(TypeError)
      // Other scopes keep their subjects free.
      await expect(mint({ subject, scope: ['support'] })).resolves.toHaveProperty('token')
    }
    await expect(mint({ subject: 'user.name@example.com' })).resolves.toHaveProperty('token')
    expect(await refusal(verify(await forged({}, 'cus:1')))).toBe('malformed_token')
  })
})

describe('createTokenHandler with a profile', () => {
  const handlerFor = (result: AuthorizeResult) =>
    createTokenHandler({ appId: APP, keyId: KID, secret: SECRET, authorize: async () => result })
  const post = () => new Request('https://app.example/api/tandem-token', { method: 'POST' })

  it('mints the profile authorize returns', async () => {
    const response = await handlerFor({
      subject: 'cus_7',
      scope: [CUSTOMER_SCOPE],
      profile: { name: 'Grace', email: 'grace@example.com' },
    })(post())
    expect(response.status).toBe(200)
    const { token } = (await response.json()) as { token: string }
    expect(await verifyToken(token, { keys, appId: APP })).toMatchObject({
      sub: 'cus_7',
      scope: [CUSTOMER_SCOPE],
      profile: { name: 'Grace', email: 'grace@example.com' },
    })
  })

  it('answers the generic 500 for a bad profile or a customer subject that is not a CUSTOMER_ID', async () => {
    for (const result of [
      { subject: 'cus_7', scope: [CUSTOMER_SCOPE], profile: { email: 'secret-but-bad' } },
      { subject: 'cus 7', scope: [CUSTOMER_SCOPE] },
    ]) {
      const response = await handlerFor(result)(post())
      expect(response.status).toBe(500)
      const body = (await response.json()) as { error: { code: string; message: string } }
      expect(body.error.code).toBe('internal_error')
      expect(body.error.message).not.toContain('secret-but-bad')
    }
  })
})
