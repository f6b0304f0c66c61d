// tokenRoute on Web Request/Response (what the App Router calls), and the same handler mounted on
// Hono, driven with app.request(): the worker-style runtimes' path. Tokens it answers work on the emulator.
import { createClient } from '@tandem/core'
import { verifyToken } from '@tandem/server'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { tokenRoute } from '../server.js'
import { MINT, setup } from './helpers.js'

const SESSION = 'session=ada'
const { GET, POST } = tokenRoute({
  ...MINT,
  // The app's own auth: a session cookie names the user.
  authorize: (request) =>
    request.headers.get('cookie') === SESSION ? { subject: 'agent_ada', scope: ['support', 'realtime'] } : null,
})
const URL_ = 'https://app.example/api/tandem-token'
const keys = { [MINT.keyId]: MINT.secret }

describe('tokenRoute', () => {
  it('POST and GET: 200 with a token for a signed-in user, that the service takes', async () => {
    const s = await setup()
    for (const handler of [POST, GET]) {
      const method = handler === POST ? 'POST' : 'GET'
      const response = await handler(new Request(URL_, { method, headers: { cookie: SESSION } }))
      expect(response.status).toBe(200)
      const { token, expiresIn } = (await response.json()) as { token: string; expiresIn: number }
      expect(expiresIn).toBe(600)
      expect((await verifyToken(token, { keys, appId: MINT.appId })).sub).toBe('agent_ada')
      const client = createClient({ baseUrl: s.emu.url, auth: { fetchToken: async () => ({ token, expiresIn }) } })
      expect((await client.support.conversations.list({ limit: 1 })).data).toHaveLength(1)
    }
  })

  it('401 without a session, 405 on PUT', async () => {
    const anonymous = await POST(new Request(URL_, { method: 'POST' }))
    expect(anonymous.status).toBe(401)
    expect(await anonymous.text()).not.toContain('token":')
    const put = await POST(new Request(URL_, { method: 'PUT', headers: { cookie: SESSION } }))
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('GET, POST, OPTIONS')
  })

  it('made without its key (`next build` evaluates route modules without runtime secrets): each request rejects instead', async () => {
    const route = tokenRoute({ ...MINT, secret: '', authorize: () => ({ subject: 'agent_ada', scope: ['support'] }) })
    const request = () => route.POST(new Request(URL_, { method: 'POST', headers: { cookie: SESSION } }))
    await expect(request()).rejects.toThrow(new TypeError('secret must be a non-empty string'))
    await expect(request()).rejects.toThrow(TypeError)
  })

  it('the same handler on Hono: 200, 401 and 405', async () => {
    const app = new Hono()
    app.all('/api/tandem-token', (c) => POST(c.req.raw))
    const ok = await app.request('/api/tandem-token', { method: 'POST', headers: { cookie: SESSION } })
    expect(ok.status).toBe(200)
    const { token } = (await ok.json()) as { token: string }
    expect((await verifyToken(token, { keys, appId: MINT.appId })).sub).toBe('agent_ada')
    expect((await app.request('/api/tandem-token', { method: 'POST' })).status).toBe(401)
    expect((await app.request('/api/tandem-token', { method: 'PUT', headers: { cookie: SESSION } })).status).toBe(405)
  })
})
