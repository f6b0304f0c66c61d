import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, createEmulatorWithState } from '../emulator.js'
import { startEmulator } from '../start.js'
import type { AccessLogLine } from '../types.js'
import { authed, call, expectError, useEmulator } from './helpers.js'

const lines: AccessLogLine[] = []
const emu = useEmulator({ onLog: (line) => lines.push(line), plans: { maps: { limit: 1000 } } })

describe('headers', () => {
  it('serves the contract it is checked against: /openapi.json and /asyncapi.json, no token needed', async () => {
    const rest = await call(emu(), '/openapi.json')
    expect(rest.status).toBe(200)
    const published = JSON.parse(readFileSync(new URL('../../../contract/spec/openapi.json', import.meta.url), 'utf8'))
    expect(await rest.json()).toEqual(published)
    const socket = (await (await call(emu(), '/asyncapi.json')).json()) as { asyncapi: string; channels: object }
    expect(socket.asyncapi).toBe('3.0.0')
    expect(Object.keys(socket.channels)).toEqual(['socket', 'customer', 'resourcePresence'])
  })

  it('X-Request-Id, RateLimit-* and CORS on successes and errors alike', async () => {
    const responses = [
      await authed(emu(), '/maps/v1/resources'),
      await call(emu(), '/maps/v1/resources'),
      await authed(emu(), '/maps/v1/resources/nope'),
      await authed(emu(), '/maps/v1/resources', { method: 'PUT' }),
    ]
    for (const res of responses) {
      expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/)
      expect(res.headers.get('ratelimit-limit')).toBe('1000')
      expect(res.headers.get('ratelimit-remaining')).toMatch(/^\d+$/)
      expect(res.headers.get('ratelimit-reset')).toMatch(/^\d+$/)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining')
      expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After')
    }
    const other = [
      await call(emu(), '/nowhere'),
      await call(emu(), '/dev/token'),
      await call(emu(), '/dev/token', { method: 'OPTIONS' }),
    ]
    for (const res of other) expect(res.headers.get('x-request-id')).toMatch(/^req_/)
    const ids = new Set(responses.map((r) => r.headers.get('x-request-id')))
    expect(ids.size).toBe(responses.length)
  })

  it('echoes a sane client X-Request-Id, replaces an unsafe one', async () => {
    const mine = await authed(emu(), '/maps/v1/resources?limit=1', { headers: { 'X-Request-Id': 'client-123' } })
    expect(mine.headers.get('x-request-id')).toBe('client-123')
    const unsafe = await authed(emu(), '/maps/v1/resources?limit=1', { headers: { 'X-Request-Id': 'a b<script>' } })
    expect(unsafe.headers.get('x-request-id')).toMatch(/^req_/)
  })

  it('answers CORS preflight for every path', async () => {
    for (const path of ['/maps/v1/resources', '/support/v1/resources/res_sup_1', '/dev/token', '/anything']) {
      const res = await call(emu(), path, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://localhost:5173',
          'Access-Control-Request-Method': 'PATCH',
          'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
        },
      })
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-methods')).toContain('PATCH')
      expect(res.headers.get('access-control-allow-headers')).toBe(
        'Authorization, Content-Type, Idempotency-Key, X-Request-Id, Tus-Resumable, Upload-Length, Upload-Metadata, Upload-Offset',
      )
    }
  })
})

describe('dev token endpoint', () => {
  it('POST and GET mint working tokens for the dev app', async () => {
    for (const method of ['POST', 'GET']) {
      const res = await call(emu(), '/dev/token', { method })
      expect(res.status).toBe(200)
      const { token, expiresIn } = (await res.json()) as { token: string; expiresIn: number }
      expect(expiresIn).toBe(600)
      expect((await call(emu(), '/support/v1/resources?limit=1', { token })).status).toBe(200)
    }
  })

  it('subject and scope narrow it, from the query or a JSON body', async () => {
    const q = (await (await call(emu(), '/dev/token?scope=support:read,maps&subject=alice')).json()) as {
      token: string
    }
    expect((await call(emu(), '/maps/v1/resources?limit=1', { token: q.token })).status).toBe(200)
    await expectError(await call(emu(), '/realtime/v1/resources', { token: q.token }), 403, 'insufficient_scope')
    const b = (await (
      await call(emu(), '/dev/token', { method: 'POST', json: { subject: 'bob', scope: ['realtime'] } })
    ).json()) as { token: string }
    await expectError(await call(emu(), '/maps/v1/resources', { token: b.token }), 403, 'insufficient_scope')
    expect((await call(emu(), '/realtime/v1/resources?limit=1', { token: b.token })).status).toBe(200)
  })

  it('bad inputs are clear JSON errors', async () => {
    await expectError(
      await call(emu(), '/dev/token', { method: 'POST', body: '{', headers: { 'Content-Type': 'application/json' } }),
      400,
      'invalid_json',
    )
    await expectError(await call(emu(), '/dev/token', { method: 'POST', json: [1] }), 400, 'invalid_body')
    await expectError(
      await call(emu(), '/dev/token', { method: 'POST', json: { scope: [1] } }),
      400,
      'invalid_parameter',
    )
    await expectError(
      await call(emu(), '/dev/token', { method: 'POST', json: { subject: '' } }),
      400,
      'invalid_parameter',
    )
    await expectError(await call(emu(), '/dev/token', { method: 'DELETE' }), 405, 'method_not_allowed')
    await expectError(
      await call(emu(), '/dev/token', { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    )
  })

  it('can be turned off', async () => {
    const off = await startEmulator({ devTokenEndpoint: false })
    try {
      await expectError(await fetch(`${off.url}/dev/token`, { method: 'POST' }), 404, 'not_found')
    } finally {
      await off.close()
    }
  })
})

describe('access log and stats', () => {
  it('never logs a query string, token or secret', async () => {
    const token = await emu().mintToken()
    await call(emu(), '/maps/v1/resources?limit=1', { token })
    // A raw key goes in the header; one put in a URL anyway (refused, 401 key_in_url) is not logged either.
    await call(emu(), '/maps/v1/resources', { token: 'key_dev:tandem_dev_secret_local_only' })
    await call(emu(), '/maps/v1/resources', { token: 'key_dev:wrong_guess' })
    await call(emu(), '/maps/v1/resources?key=key_dev:tandem_dev_secret_local_only')
    await call(emu(), '/maps/v1/resources?key=key_dev:wrong_guess')
    await call(emu(), '/dev/token?scope=maps&subject=secret-subject')
    const text = JSON.stringify(emu().log) + JSON.stringify(lines)
    expect(text).not.toContain('?')
    expect(text).not.toContain('tandem_dev_secret_local_only')
    expect(text).not.toContain('wrong_guess')
    expect(text).not.toContain(token)
    expect(text).not.toContain('secret-subject')
    const last = lines.at(-1)
    expect(last).toMatchObject({ method: 'GET', path: '/dev/token', status: 200 })
    expect(lines.find((l) => l.service === 'maps' && l.app === 'app_dev')).toBeDefined()
    expect(typeof last?.durationMs).toBe('number')
    expect(emu().log.length).toBeLessThanOrEqual(1000)
  })

  it('counts requests; reset() restores the seeded state', async () => {
    emu().reset()
    expect(emu().stats).toEqual({
      requests: 0,
      tokenRequests: 0,
      rateLimited: 0,
      byService: { maps: 0, support: 0, realtime: 0 },
      writesApplied: 0,
    })
    await authed(emu(), '/maps/v1/resources/res_map_1', { method: 'DELETE' })
    await authed(emu(), '/support/v1/resources?limit=1')
    await call(emu(), '/dev/token')
    expect(emu().stats).toMatchObject({
      requests: 3,
      tokenRequests: 1,
      writesApplied: 1,
      byService: { maps: 1, support: 1, realtime: 0 },
    })
    await expectError(await authed(emu(), '/maps/v1/resources/res_map_1'), 404, 'not_found')
    emu().reset()
    expect((await authed(emu(), '/maps/v1/resources/res_map_1')).status).toBe(200)
  })

  it('the seed decides the data', async () => {
    const other = await startEmulator({ seed: 2 })
    try {
      const token = await other.mintToken()
      const a = await (await call(other, '/maps/v1/resources/res_map_1', { token })).json()
      const b = await (await authed(emu(), '/maps/v1/resources/res_map_1')).json()
      expect(a).not.toEqual(b)
    } finally {
      await other.close()
    }
  })
})

describe('robustness', () => {
  it('an unexpected exception is a 500 internal_error and the emulator keeps going', async () => {
    const { core, state } = createEmulatorWithState({})
    const server = createServer((req, res) => core.handle(req, res))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const list = vi.spyOn(state.stores.maps, 'list').mockImplementationOnce(() => {
        throw new Error('kaboom')
      })
      const token = await core.mintToken()
      const res = await fetch(`${url}/maps/v1/resources`, { headers: { Authorization: `Bearer ${token}` } })
      await expectError(res, 500, 'internal_error')
      expect(spy).toHaveBeenCalled()
      list.mockRestore()
      expect((await fetch(`${url}/maps/v1/resources`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(
        200,
      )
    } finally {
      spy.mockRestore()
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    }
  })

  it('embeds as middleware: unmatched paths go to next()', async () => {
    const core = createEmulator()
    let server: Server | undefined
    try {
      server = createServer((req, res) =>
        core.handle(req, res, () => {
          res.statusCode = 299
          res.end('app')
        }),
      )
      core.attach(server)
      await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r))
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const page = await fetch(`${url}/index.html`)
      expect(page.status).toBe(299)
      expect(await page.text()).toBe('app')
      expect((await fetch(`${url}/maps/v1/resources`)).status).toBe(401)
      expect((await fetch(`${url}/dev/token`)).status).toBe(200)
    } finally {
      server?.closeAllConnections()
      await new Promise((r) => server?.close(r))
    }
  })
})
