import { mintToken } from '@tandem/server'
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { DEV_APP } from '../defaults.js'
import { call, expectError, useEmulator } from './helpers.js'

const OTHER = {
  appId: 'app_other',
  keys: [
    { id: 'key_other', secret: 'other_secret' },
    { id: 'key_other_2', secret: 'rotated_secret' },
  ],
}
const emu = useEmulator({ apps: [DEV_APP, OTHER] })

const mint = (o: Partial<Parameters<typeof mintToken>[0]> = {}) =>
  mintToken({
    appId: 'app_dev',
    keyId: 'key_dev',
    secret: 'tandem_dev_secret_local_only',
    subject: 'u1',
    scope: ['maps', 'support', 'realtime'],
    ...o,
  }).then((t) => t.token)

describe('bearer tokens', () => {
  it('accepts a valid token, and tokens of every configured app and key', async () => {
    expect((await call(emu(), '/maps/v1/resources', { token: await mint() })).status).toBe(200)
    const rotated = await mint({ appId: 'app_other', keyId: 'key_other_2', secret: 'rotated_secret' })
    expect((await call(emu(), '/maps/v1/resources', { token: rotated })).status).toBe(200)
    expect(
      (await call(emu(), '/maps/v1/resources', { token: await emu().mintToken({ appId: 'app_other' }) })).status,
    ).toBe(200)
  })

  it('missing token → 401 missing_token', async () => {
    const res = await call(emu(), '/maps/v1/resources')
    await expectError(res, 401, 'missing_token')
    expect(res.headers.get('www-authenticate')).toBe('Bearer')
    await expectError(
      await call(emu(), '/maps/v1/resources', { headers: { Authorization: 'Basic abc' } }),
      401,
      'missing_token',
    )
  })

  it('expired token → 401 token_expired', async () => {
    const token = await emu().mintToken({ now: Date.now() - 3_600_000, ttlSeconds: 60 })
    await expectError(await call(emu(), '/maps/v1/resources', { token }), 401, 'token_expired')
  })

  it('forged signature → 401 invalid_signature', async () => {
    const forged = await mint({ secret: 'not-the-secret' })
    await expectError(await call(emu(), '/maps/v1/resources', { token: forged }), 401, 'invalid_signature')
    const token = await mint()
    const tampered = `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`
    await expectError(await call(emu(), '/maps/v1/resources', { token: tampered }), 401, 'invalid_signature')
  })

  it('unknown app → 401 unknown_app; unknown key → 401 unknown_key', async () => {
    await expectError(
      await call(emu(), '/maps/v1/resources', { token: await mint({ appId: 'app_nope' }) }),
      401,
      'unknown_app',
    )
    await expectError(
      await call(emu(), '/maps/v1/resources', { token: await mint({ keyId: 'key_gone' }) }),
      401,
      'unknown_key',
    )
    // Another app's key cannot sign for this app.
    await expectError(
      await call(emu(), '/maps/v1/resources', { token: await mint({ keyId: 'key_other', secret: 'other_secret' }) }),
      401,
      'unknown_key',
    )
  })

  it('malformed token → 401 malformed_token', async () => {
    await expectError(await call(emu(), '/maps/v1/resources', { token: 'abc.def' }), 401, 'malformed_token')
    await expectError(await call(emu(), '/maps/v1/resources', { token: 'x'.repeat(9000) }), 401, 'malformed_token')
  })

  it('token from the future → 401 token_not_yet_valid', async () => {
    const token = await mint({ now: Date.now() + 3_600_000 })
    await expectError(await call(emu(), '/maps/v1/resources', { token }), 401, 'token_not_yet_valid')
  })
})

describe('scopes', () => {
  it('403 insufficient_scope with the required capability', async () => {
    const token = await emu().mintToken({ scope: ['support:read'] })
    const res = await call(emu(), '/maps/v1/resources', { token })
    const body = await expectError(res, 403, 'insufficient_scope')
    expect(body.error.details).toEqual([{ required: 'maps' }])
    expect((await call(emu(), '/support/v1/resources', { token })).status).toBe(200)
    const write = await call(emu(), '/support/v1/resources', { token, method: 'POST', json: { name: 'x' } })
    expect((await expectError(write, 403, 'insufficient_scope')).error.details).toEqual([{ required: 'support:write' }])
  })

  it('support:write implies read; prefix scopes cover sub-capabilities', async () => {
    const writer = await emu().mintToken({ scope: ['support:write'] })
    expect((await call(emu(), '/support/v1/resources', { token: writer })).status).toBe(200)
    const realtimeRead = await emu().mintToken({ scope: ['realtime:read'] })
    expect((await call(emu(), '/realtime/v1/resources', { token: realtimeRead })).status).toBe(200)
    const res = await call(emu(), '/realtime/v1/resources', {
      token: realtimeRead,
      method: 'POST',
      json: { name: 'chat:new' },
    })
    expect((await expectError(res, 403, 'insufficient_scope')).error.details).toEqual([{ required: 'realtime:write' }])
    const all = await emu().mintToken({ scope: ['*'] })
    expect(
      (await call(emu(), '/realtime/v1/resources', { token: all, method: 'POST', json: { name: 'chat:new' } })).status,
    ).toBe(201)
  })
})

describe('raw keys', () => {
  const KEY = 'key_dev:tandem_dev_secret_local_only'
  const BROWSERS: Record<string, string>[] = [
    { Origin: 'http://localhost:5173' },
    // Sec-Fetch-Mode alone is not a browser: Node's own fetch sends it on every request.
    { 'Sec-Fetch-Site': 'cross-site' },
    { 'Sec-Fetch-Dest': 'image' },
    { 'Sec-Fetch-User': '?1' },
    // A page on plain http (a LAN address) sends no fetch metadata, and no Origin on a same-origin GET (issue 27).
    { Referer: 'http://192.168.1.20:5173/' },
  ]

  it('Authorization: Bearer <keyId>:<secret> from a server acts as the app (subject key:<keyId>, every capability)', async () => {
    expect((await call(emu(), '/maps/v1/resources?limit=1', { token: KEY })).status).toBe(200)
    const other = await call(emu(), '/support/v1/resources', {
      token: 'key_other_2:rotated_secret',
      method: 'POST',
      json: { name: 'server side' },
    })
    expect(other.status).toBe(201)
    const published = await call(emu(), '/realtime/v1/channels/keys:room/messages', {
      token: KEY,
      method: 'POST',
      json: { event: 'said', data: 1 },
    })
    expect(published.status).toBe(201)
    const history = await call(emu(), '/realtime/v1/channels/keys:room/messages', { token: KEY })
    const { messages } = (await history.json()) as { messages: { clientId: string }[] }
    expect(messages.map((m) => m.clientId)).toEqual(['key:key_dev'])
  })

  it('a raw key in the header from a browser: 403, before the key is even checked', async () => {
    for (const headers of BROWSERS) {
      await expectError(
        await call(emu(), '/maps/v1/resources', { token: KEY, headers }),
        403,
        'key_not_allowed_in_browser',
      )
      await expectError(
        await call(emu(), '/maps/v1/resources', { token: 'wrong:wrong', headers }),
        403,
        'key_not_allowed_in_browser',
      )
    }
    // A token from the same browser is what pages are for.
    const token = await mint()
    expect((await call(emu(), '/maps/v1/resources', { token, headers: BROWSERS[0] })).status).toBe(200)
  })

  it('a wrong key → 401 invalid_key, never echoed', async () => {
    for (const key of ['key_dev:wrong', 'nope:tandem_dev_secret_local_only', 'key_dev:', ':tandem_dev', ':']) {
      const body = await expectError(await call(emu(), '/maps/v1/resources', { token: key }), 401, 'invalid_key')
      if (key.length > 2) expect(JSON.stringify(body)).not.toContain(key)
      expect(JSON.stringify(body)).not.toContain('tandem_dev')
    }
    // No colon: a token, and not a well-formed one.
    await expectError(await call(emu(), '/maps/v1/resources', { token: 'key_dev' }), 401, 'malformed_token')
  })

  it('?key= is refused everywhere: 401 key_in_url from a server (saying where the key goes), 403 from a browser', async () => {
    const token = await mint()
    for (const query of [`key=${KEY}`, 'key=key_dev:wrong', 'key=', `limit=1&key=${encodeURIComponent(KEY)}`]) {
      // Even beside a valid token: a key in a URL is a leak to stop, not a second credential.
      for (const init of [{}, { token }]) {
        const body = await expectError(await call(emu(), `/maps/v1/resources?${query}`, init), 401, 'key_in_url')
        expect(body.error.message).toMatch(/Authorization/)
        expect(JSON.stringify(body)).not.toContain('tandem_dev')
        expect(JSON.stringify(body)).not.toContain('wrong')
      }
      for (const headers of BROWSERS)
        await expectError(
          await call(emu(), `/maps/v1/resources?${query}`, { headers }),
          403,
          'key_not_allowed_in_browser',
        )
    }
    // The other credential names of the contract (CREDENTIAL_PARAMS), as core refuses them in a URL.
    for (const query of ['api_key=x', 'token=x', 'access_token=x', 'API-Key=x'])
      await expectError(await call(emu(), `/maps/v1/resources?${query}`, { token }), 401, 'key_in_url')
  })

  it('never echoes a token in an error', async () => {
    const token = await mint({ secret: 'forged' })
    const text = await (await call(emu(), '/maps/v1/resources', { token })).text()
    expect(text).not.toContain(token)
    expect(text).not.toContain(token.split('.')[2] ?? '')
  })
})

describe('the dev token endpoint', () => {
  it('answers 405 with Allow to TRACE (a method no Request can carry), not 500', async () => {
    // fetch() refuses to send TRACE: a raw node:http request does.
    const { status, allow } = await new Promise<{ status: number; allow?: string }>((resolve, reject) => {
      const req = request(`${emu().url}/dev/token`, { method: 'TRACE' }, (res) => {
        res.resume()
        resolve({ status: res.statusCode ?? 0, allow: res.headers.allow })
      })
      req.on('error', reject)
      req.end()
    })
    expect({ status, allow }).toEqual({ status: 405, allow: 'GET, POST, OPTIONS' })
  })
})
