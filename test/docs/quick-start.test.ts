// The README's quick start is the code of a tested app (issue 45, "Docs that run as written"): its
// blocks, as the README has them, become the app's modules. The backend block serves its token
// route (with the app's own `yourSession`, test/docs/quick-start-session.ts) on 127.0.0.1 in Node;
// each browser block runs with the `location` and `fetch` of a page of that origin (a happy-dom
// window: relative URLs resolved, the session cookie sent, CORS applied, as a browser does), and must
// geocode and print every active conversation. The one difference from production: the page's
// requests to https://api.tandem.dev (the default `baseUrl`, which the blocks keep) are routed to the
// emulator, as a hosts file would route them.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { createClient } from '@tandem/core'
import { DEV_APP, startEmulator, type Emulator } from '@tandem/emulator'
import { toNodeListener } from '@tandem/server'
import { Window } from 'happy-dom'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { extract, ROOT, type Snippet } from './snippets.js'

const SERVICE = 'https://api.tandem.dev'
const OUT = join(ROOT, 'test', 'docs', '.quick-start')

/** The TypeScript blocks of the README's "Quick start" section, in order. */
function quickStart(): Snippet[] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const lines = text.split('\n')
  const start = lines.indexOf('## Quick start')
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '))
  return extract('README.md', text).filter((s) => s.line > start && (end < 0 || s.line <= end))
}

/** The block as a module of the app: the backend's gets the app's own `yourSession`. */
function write(s: Snippet, name: string): string {
  const path = join(OUT, `${name}.ts`)
  const session = s.fragment ? "import { yourSession } from '../quick-start-session.js'\n" : ''
  writeFileSync(path, `// Generated from ${s.id} by test/docs/quick-start.test.ts.\n${session}${s.code}\nexport {}\n`)
  return path
}

describe("the README's quick start, run as an app", () => {
  const blocks = quickStart()
  let emu: Emulator
  let backend: Server
  let page: Window
  /** Every request the page made to the service, as the emulator answered it. */
  const served: { method: string; path: string; status: number }[] = []

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, seed: 1 })
    // The backend's environment, as the block reads it: the emulator's dev app.
    const key = DEV_APP.keys[0]!
    vi.stubEnv('TANDEM_APP_ID', DEV_APP.appId)
    vi.stubEnv('TANDEM_KEY_ID', key.id)
    vi.stubEnv('TANDEM_SECRET', key.secret)
    mkdirSync(OUT, { recursive: true })
    const [server] = blocks
    const { POST } = (await import(/* @vite-ignore */ write(server!, 'token-route'))) as {
      POST: (request: Request) => Promise<Response>
    }
    const route = toNodeListener(POST)
    backend = createServer((req, res) => {
      if (req.url === '/api/tandem-token') return void route(req, res)
      res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`
    // The page: served by the backend, its user signed in.
    page = new Window({ url: `${origin}/` })
    page.document.cookie = 'session=ada'
    const pageFetch = page.fetch.bind(page) as unknown as typeof fetch
    vi.stubGlobal('location', page.location)
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (input instanceof Request) throw new Error('quick-start.test.ts routes URLs; the SDK passed a Request')
      const url = String(input)
      const service = url.startsWith(`${SERVICE}/`)
      // The SDK runs in Node's realm here: its Headers become the page's (one realm in a browser).
      const pageInit = { ...init, headers: Object.fromEntries(new Headers(init.headers)) }
      const response = await pageFetch(service ? `${emu.url}${url.slice(SERVICE.length)}` : url, pageInit)
      if (service) served.push({ method: init.method ?? 'GET', path: new URL(url).pathname, status: response.status })
      return response
    })
  })

  afterAll(async () => {
    vi.unstubAllGlobals()
    vi.unstubAllEnvs()
    await page?.happyDOM.close()
    await new Promise((resolve) => backend?.close(resolve))
    await emu?.close()
    rmSync(OUT, { recursive: true, force: true })
  })

  it('is three blocks: your backend’s token route, then the browser code in two styles', () => {
    expect(blocks.map((s) => [s.fragment, s.run])).toEqual([
      [true, false],
      [false, false],
      [false, false],
    ])
    expect(blocks[0]!.code).toContain('createTokenHandler')
    expect(blocks[1]!.code).toContain("from '@tandem/core/client'")
    expect(blocks[2]!.code).toContain("from '@tandem/core'")
  })

  it('your backend: a token for a signed-in user, 401 for anyone else', async () => {
    const token = await fetch('/api/tandem-token', { method: 'POST' })
    expect(token.status).toBe(200)
    expect(await token.json()).toMatchObject({ token: expect.any(String), expiresIn: expect.any(Number) })
    const origin = location.origin
    const anonymous = await fetch(`${origin}/api/tandem-token`, { method: 'POST', credentials: 'omit' })
    expect(anonymous.status).toBe(401)
  })

  /** Every active conversation's subject, as the service lists them (the dev token's client). */
  async function activeSubjects(): Promise<string[]> {
    const tandem = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    const subjects: string[] = []
    for await (const c of tandem.support.conversations.list({ status: 'active' })) subjects.push(c.subject)
    return subjects
  }

  it.each([
    ['modular', 1],
    ['one-object', 2],
  ] as const)('the %s browser block geocodes and prints every active conversation', async (name, index) => {
    const expected = await activeSubjects()
    expect(expected.length).toBeGreaterThan(0)
    const printed: unknown[] = []
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(line))
    const before = served.length
    try {
      await import(/* @vite-ignore */ write(blocks[index]!, name))
    } finally {
      log.mockRestore()
    }
    expect(printed).toEqual(expected)
    const calls = served.slice(before)
    expect(calls).toContainEqual({ method: 'POST', path: '/maps/v1/geocode', status: 200 })
    expect(calls.filter((c) => c.path === '/support/v1/conversations').map((c) => c.status)).toEqual(
      expect.arrayContaining([200]),
    )
    expect(calls.every((c) => c.status === 200)).toBe(true)
  })
})
