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
  it('accepted without Origin', async () => {
    const res = await call(emu(), '/maps/v1/resources?key=key_dev:tandem_dev_secret_local_only&limit=1')
    expect(res.status).toBe(200)
    const other = await call(emu(), '/support/v1/resources?key=key_other_2:rotated_secret', {
      method: 'POST',
      json: { name: 'server side' },
    })
    expect(other.status).toBe(201)
  })

  it('refused with Origin, before the key is even checked', async () => {
    const headers = { Origin: 'http://localhost:5173' }
    await expectError(
      await call(emu(), '/maps/v1/resources?key=key_dev:tandem_dev_secret_local_only', { headers }),
      403,
      'key_not_allowed_in_browser',
    )
    await expectError(
      await call(emu(), '/maps/v1/resources?key=wrong:wrong', { headers }),
      403,
      'key_not_allowed_in_browser',
    )
  })

  it('refused with the fetch metadata a browser sends (no Origin), before the key is checked', async () => {
    // Sec-Fetch-Mode alone is not a browser: Node's own fetch sends it on every request (see above).
    const browsers: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Dest': 'image' },
      { 'Sec-Fetch-User': '?1' },
      // A page on plain http (a LAN address) sends no fetch metadata, and no Origin on a same-origin GET (issue 27).
      { Referer: 'http://192.168.1.20:5173/' },
    ]
    for (const headers of browsers) {
      await expectError(
        await call(emu(), '/maps/v1/resources?key=key_dev:tandem_dev_secret_local_only', { headers }),
        403,
        'key_not_allowed_in_browser',
      )
    }
  })

  it('a wrong key → 401 invalid_key, never echoed', async () => {
    for (const key of ['key_dev:wrong', 'nope:tandem_dev_secret_local_only', 'key_dev', '', ':']) {
      const res = await call(emu(), `/maps/v1/resources?key=${encodeURIComponent(key)}`)
      const body = await expectError(res, 401, 'invalid_key')
      if (key.length > 2) expect(JSON.stringify(body)).not.toContain(key)
    }
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
