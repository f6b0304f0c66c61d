import { describe, expect, it } from 'vitest'
import { createTokenHandler, verifyToken, type AuthorizeResult } from '../index.js'
import { APP, KID, SECRET } from './fixtures.js'

const handlerFor = (authorize: (request: Request) => AuthorizeResult | Promise<AuthorizeResult>, ttlSeconds?: number) =>
  createTokenHandler({ appId: APP, keyId: KID, secret: SECRET, authorize, ttlSeconds })
const request = (method = 'POST') => new Request('https://app.example/api/tandem-token', { method })
const allow = (req: Request): AuthorizeResult =>
  req.headers.get('cookie') === 'session=ok' ? { subject: 'user_7', scope: ['maps', 'support:write'] } : null

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toBe('application/json')
  expect(response.headers.get('cache-control')).toBe('no-store')
  const body = (await response.json()) as { error: { code: string; message: string; status: number } }
  expect(body.error).toEqual({ code, message: expect.any(String), status })
  return body.error
}

describe('createTokenHandler', () => {
  it('answers an allowed GET or POST with a token that verifies', async () => {
    const handler = handlerFor(allow, 120)
    for (const method of ['GET', 'POST']) {
      const response = await handler(
        new Request('https://app.example/t', { method, headers: { cookie: 'session=ok' } }),
      )
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('content-type')).toBe('application/json')
      const body = (await response.json()) as { token: string; expiresIn: number }
      expect(Object.keys(body).sort()).toEqual(['expiresIn', 'token'])
      expect(body.expiresIn).toBe(120)
      const claims = await verifyToken(body.token, { keys: { [KID]: SECRET }, appId: APP })
      expect(claims).toMatchObject({ sub: 'user_7', scope: ['maps', 'support:write'], kid: KID })
      expect(claims.exp - claims.iat).toBe(120)
    }
  })

  it('answers 401 when authorize returns null, false or refuse 401', async () => {
    await expectError(await handlerFor(allow)(request()), 401, 'unauthorized')
    await expectError(await handlerFor(() => false)(request()), 401, 'unauthorized')
    const error = await expectError(
      await handlerFor(() => ({ refuse: 401, message: 'Sign in first.' }))(request()),
      401,
      'unauthorized',
    )
    expect(error.message).toBe('Sign in first.')
  })

  it('answers 403 forbidden on refuse 403', async () => {
    await expectError(await handlerFor(async () => ({ refuse: 403 }))(request()), 403, 'forbidden')
  })

  it('answers 405 for other methods and 204 for OPTIONS', async () => {
    const handler = handlerFor(allow)
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const response = await handler(request(method))
      await expectError(response, 405, 'method_not_allowed')
      expect(response.headers.get('allow')).toBe('GET, POST, OPTIONS')
    }
    const options = await handler(request('OPTIONS'))
    expect(options.status).toBe(204)
    expect(await options.text()).toBe('')
  })

  it('answers 500 with a fixed message when authorize throws or returns nonsense', async () => {
    const leaky = 'postgres://admin:hunter2@db/prod'
    const thrown = await expectError(
      await handlerFor(() => {
        throw new Error(leaky)
      })(request()),
      500,
      'internal_error',
    )
    expect(thrown.message).not.toContain('hunter2')
    await expectError(await handlerFor(() => Promise.reject(new Error(leaky)))(request()), 500, 'internal_error')
    await expectError(await handlerFor(() => ({ refuse: 500 as 403 }))(request()), 500, 'internal_error')
    await expectError(await handlerFor(() => ({ subject: '', scope: [] }))(request()), 500, 'internal_error')
    await expectError(
      await handlerFor(() => ({ subject: 'u', scope: ['has space'] }))(request()),
      500,
      'internal_error',
    )
  })

  it('validates its options up front', () => {
    expect(() => createTokenHandler({ appId: APP, keyId: KID, secret: '', authorize: allow })).toThrow(TypeError)
    expect(() =>
      createTokenHandler({ appId: APP, keyId: KID, secret: SECRET, authorize: allow, ttlSeconds: 10 }),
    ).toThrow(RangeError)
  })
})
