// A raw key from a page on a plain-http LAN address, in real Chromium (issue 27, item 10).
// Chromium sends no Sec-Fetch-* to a destination that is not secure (http, not localhost), and
// no Origin on a same-origin GET: such a page's `?key=` request used to be served. The page and
// the emulator share one origin on this machine's non-loopback address (or, without one, a
// LAN-looking name mapped by --host-resolver-rules). The key is refused, in the Authorization
// header (where a server sends it) or the URL (where no one may, since issue 43); a token is not.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import { DEV_APP, createEmulator } from '@tandem/emulator'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, WAIT } from './harness.js'

const KEY = `${DEV_APP.keys[0]!.id}:${DEV_APP.keys[0]!.secret}`
/** This machine's first non-loopback IPv4 address, if it has one. */
const LAN_IP = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address
const NAME = 'tandem-lan.test'

describe.skipIf(!hasChromium)('a raw key from a page on a LAN address, in Chromium', () => {
  const emu = createEmulator({ apps: [DEV_APP] })
  /** The headers of each API request and upgrade the server received. */
  const seen: { url: string; headers: IncomingHttpHeaders }[] = []
  let server: Server
  let browser: Browser
  let page: Page
  let origin = ''

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>lan</title>')
      seen.push({ url: req.url ?? '', headers: req.headers })
      emu.handle(req, res)
    })
    server.prependListener('upgrade', (req) => void seen.push({ url: req.url ?? '', headers: req.headers }))
    emu.attach(server)
    await new Promise<void>((resolve) => server.listen(0, LAN_IP ?? '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    origin = `http://${LAN_IP ?? NAME}:${port}`
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        ...(LAN_IP ? [] : [`--host-resolver-rules=MAP ${NAME} 127.0.0.1`]),
      ],
    })
    page = await browser.newPage()
    page.setDefaultTimeout(WAIT.timeout)
    await page.goto(`${origin}/`)
  })

  afterAll(async () => {
    await browser?.close()
    server?.closeAllConnections()
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  })

  it('a same-origin GET with the key, in the header or ?key=, carries no Origin and no Sec-Fetch-*, and is refused 403 key_not_allowed_in_browser', async () => {
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false)
    const answers = await page.evaluate(async (key) => {
      const header = await fetch('/maps/v1/resources?limit=1', { headers: { authorization: `Bearer ${key}` } })
      const query = await fetch(`/maps/v1/resources?limit=1&key=${encodeURIComponent(key)}`)
      return [
        { status: header.status, text: await header.text() },
        { status: query.status, text: await query.text() },
      ]
    }, KEY)
    const sent = seen.filter((s) => s.url.startsWith('/maps/v1/resources')).map((s) => s.headers)
    expect(sent).toHaveLength(2)
    for (const headers of sent) {
      // The gap: none of the headers that used to mark a browser.
      expect(Object.keys(headers).filter((h) => h === 'origin' || h.startsWith('sec-fetch-'))).toEqual([])
      expect(headers.referer).toBe(`${origin}/`)
    }
    for (const answer of answers) {
      expect(answer.status).toBe(403)
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'key_not_allowed_in_browser' } })
      expect(answer.text).not.toContain(DEV_APP.keys[0]!.secret)
    }
  })

  it('a WebSocket with ?key= is refused at the upgrade', async () => {
    const outcome = await page.evaluate(
      (key) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/realtime/v1/ws?key=${key}`)
          ws.onopen = () => resolve('open')
          ws.onerror = () => resolve('error')
        }),
      KEY,
    )
    expect(outcome).toBe('error')
    const upgrade = seen.find((s) => s.url.startsWith('/realtime/v1/ws?key='))!.headers
    expect(upgrade.origin).toBe(origin)
  })

  it('a token from the same page works, over REST and the socket', async () => {
    const token = await emu.mintToken({ scope: ['maps', 'realtime'] })
    const outcome = await page.evaluate(async (t) => {
      const res = await fetch('/maps/v1/resources?limit=1', { headers: { authorization: `Bearer ${t}` } })
      const socket = await new Promise<string>((resolve) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/realtime/v1/ws`)
        ws.onopen = () => ws.send(JSON.stringify({ type: 'connect', id: 1, token: t }))
        ws.onmessage = (e) => {
          resolve((JSON.parse(String(e.data)) as { type: string }).type)
          ws.close()
        }
        ws.onerror = () => resolve('error')
      })
      return { rest: res.status, socket }
    }, token)
    expect(outcome).toEqual({ rest: 200, socket: 'connected' })
  })
})
