// A raw key from a page on a plain-http LAN address (issue 27, item 10). Chromium sends fetch
// metadata (Sec-Fetch-*) only to secure destinations (https, localhost), and no Origin on a
// same-origin GET: such a page's `?key=` request carried none of the headers that marked a
// browser, and was served. Now `Referer` marks one too (the emulator's one rule, BROWSER_HEADERS
// in packages/emulator/src/auth.ts), over REST and on the socket upgrade alike. Since issue 43 a
// raw key travels only in `Authorization: Bearer <keyId>:<secret>` (from a server); `?key=` is
// refused everywhere. Real HTTP and WebSocket against the emulator; the same requests in real
// Chromium are playground/e2e/lan-key.test.ts.
import { request } from 'node:http'
import { DEV_APP, startEmulator, type Emulator } from '@tandem/emulator'
import { createRealtime } from '@tandem/realtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { waitUntil } from '../utils/wait.js'

const KEY = `${DEV_APP.keys[0]!.id}:${DEV_APP.keys[0]!.secret}`
const LAN = 'http://192.168.1.20:5173'
/** What a page on the LAN address sends, one way or another (no Sec-Fetch-*: not a secure destination). */
const BROWSERS: Record<string, Record<string, string>> = {
  'cross-origin fetch (Origin)': { origin: LAN },
  'same-origin GET (Referer only)': { referer: `${LAN}/support` },
  'an <img> (Referer only)': { referer: `${LAN}/`, accept: 'image/avif,image/webp,*/*' },
}

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ apps: [DEV_APP] })
})
afterAll(async () => {
  await emu?.close()
})

/** A WebSocket upgrade with these headers: the HTTP answer when it is refused, else 101. */
function upgrade(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${emu.url}${path}`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    })
    req.on('upgrade', (res, socket) => {
      socket.destroy()
      resolve({ status: res.statusCode ?? 0, body: '' })
    })
    req.on('response', (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('a raw key from a page on a LAN address', () => {
  it('REST: refused 403 key_not_allowed_in_browser with Origin or Referer, in the header or the URL; the same key from a server works', async () => {
    const asHeader = { authorization: `Bearer ${KEY}` }
    for (const [what, headers] of Object.entries(BROWSERS)) {
      for (const [how, url, init] of [
        ['header', `${emu.url}/maps/v1/resources?limit=1`, { ...headers, ...asHeader }],
        ['?key=', `${emu.url}/maps/v1/resources?key=${KEY}&limit=1`, headers],
      ] as const) {
        const res = await fetch(url, { headers: init })
        expect(res.status, `${what}, ${how}`).toBe(403)
        const body = (await res.json()) as { error: { code: string; message: string } }
        expect(body.error.code, `${what}, ${how}`).toBe('key_not_allowed_in_browser')
        expect(JSON.stringify(body)).not.toContain(DEV_APP.keys[0]!.secret)
      }
    }
    // Node's fetch sends Sec-Fetch-Mode but no Origin, Referer or other Sec-Fetch-*: a server.
    const server = await fetch(`${emu.url}/maps/v1/resources?limit=1`, { headers: asHeader })
    expect(server.status).toBe(200)
    // The key in a URL, even from a server: 401 key_in_url.
    const inUrl = await fetch(`${emu.url}/maps/v1/resources?key=${KEY}&limit=1`)
    expect(inUrl.status).toBe(401)
    expect(((await inUrl.json()) as { error: { code: string } }).error.code).toBe('key_in_url')
  })

  it('REST: a token from the same browser origin works', async () => {
    const token = await emu.mintToken({ scope: ['maps'] })
    for (const [what, headers] of Object.entries(BROWSERS)) {
      const res = await fetch(`${emu.url}/maps/v1/resources?limit=1`, {
        headers: { ...headers, authorization: `Bearer ${token}` },
      })
      expect(res.status, what).toBe(200)
    }
  })

  it('WebSocket: an upgrade with ?key= and Origin or Referer is refused 403 key_not_allowed_in_browser', async () => {
    for (const [what, headers] of Object.entries(BROWSERS)) {
      const res = await upgrade(`/realtime/v1/ws?key=${KEY}`, headers)
      expect(res.status, what).toBe(403)
      expect((JSON.parse(res.body) as { error: { code: string } }).error.code, what).toBe('key_not_allowed_in_browser')
      expect(res.body).not.toContain(DEV_APP.keys[0]!.secret)
    }
    // From a server, a key in the URL is refused too (401 key_in_url): the socket takes tokens only.
    const server = await upgrade(`/realtime/v1/ws?key=${KEY}`, {})
    expect(server.status).toBe(401)
    expect((JSON.parse(server.body) as { error: { code: string } }).error.code).toBe('key_in_url')
    expect(server.body).not.toContain(DEV_APP.keys[0]!.secret)
    // Without a key the upgrade goes ahead (the socket then wants a token in its first frame).
    expect((await upgrade('/realtime/v1/ws', { origin: LAN })).status).toBe(101)
    expect((await upgrade('/realtime/v1/ws', {})).status).toBe(101)
  })

  it('WebSocket: a token from a browser origin connects', async () => {
    class FromLan extends WebSocket {
      constructor(url: string | URL) {
        super(url, { headers: { origin: LAN, referer: `${LAN}/` } })
      }
    }
    const rt = createRealtime(
      {
        auth: { fetchToken: async () => ({ token: await emu.mintToken(), expiresIn: 600 }) },
        url: `${emu.url}/realtime`,
      },
      { WebSocket: FromLan },
    )
    try {
      rt.connect()
      await waitUntil(() => rt.state === 'connected', { what: 'connected from a LAN origin' })
    } finally {
      rt.close()
    }
  })
})
