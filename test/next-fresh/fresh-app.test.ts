// A fresh create-next-app app (Next 16.4's defaults: cacheComponents on) with @tandem/next from
// the packed tarballs, built with `next build` and served by `next start` beside an emulator
// (scaffold.ts, template/): the build passes, the server's HTML holds the user's data, and in
// Chromium the page hydrates without a warning and without fetching the list again, then turns
// live. docs/next.md's code blocks are this app's files (test/docs/from-files.test.ts).
import { existsSync } from 'node:fs'
import { createClient } from '@tandem/core'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { chromium, type Browser, type Page, type Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slack } from '../utils/wait.js'
import { nextBuild, nextStart, type NextServer } from './next-process.js'
import { scaffold } from './scaffold.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium && process.env.CI) throw new Error(`Chromium not found at ${CHROMIUM}: the browser test cannot run.`)
const WAIT = { timeout: Math.max(20_000, slack(10_000)) }
/** The scaffold, one `next build` and a `next start`: a minute on a quiet machine. */
const SETUP_MS = Math.max(300_000, slack(120_000))
const USER = 'agent-fresh'
/** create-next-app's config as it is; `TANDEM_NEXT_FRESH_CACHE_COMPONENTS=off` runs the same app with it off. */
const CACHE_COMPONENTS = process.env.TANDEM_NEXT_FRESH_CACHE_COMPONENTS !== 'off'

/** React's escaping of text in HTML, to find a subject in the server's markup. */
const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;')

describe.skipIf(!hasChromium)('a fresh create-next-app app with @tandem/next from the tarballs', () => {
  let emulator: Emulator
  let server: NextServer
  let browser: Browser
  let api: ReturnType<typeof createClient>
  let built = ''
  let removeApp: (() => void) | undefined

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 })
    // The service's address is public (it reaches the browser): known at build, as NEXT_PUBLIC_
    // says. The app's key is a runtime secret: the build runs without it, as a CI build does.
    const publicEnv = { NEXT_PUBLIC_TANDEM_URL: emulator.url }
    const secrets = {
      TANDEM_APP_ID: 'app_dev',
      TANDEM_KEY_ID: 'key_dev',
      TANDEM_SECRET: 'tandem_dev_secret_local_only',
    }
    const seconds = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`
    const started = performance.now()
    const fresh = await scaffold({ cacheComponents: CACHE_COMPONENTS })
    removeApp = fresh.remove
    const scaffolded = performance.now()
    built = await nextBuild(fresh.app, publicEnv)
    console.log(
      `fresh app: scaffold ${seconds(started, scaffolded)}, next build ${seconds(scaffolded, performance.now())}`,
    )
    server = await nextStart(fresh.app, { ...publicEnv, ...secrets }, WAIT.timeout)
    api = createClient({ baseUrl: emulator.url, auth: { url: `${emulator.url}/dev/token?user=fresh-api` } })
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] })
  }, SETUP_MS)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await emulator?.close()
    removeApp?.()
  })

  /** A signed-in page whose console errors and warnings, conversation GETs (lists and items) and subscribe frames are kept from its first byte. */
  async function open(path: string) {
    const context = await browser.newContext()
    await context.addCookies([{ name: 'demo-user', value: USER, url: server.url }])
    const page: Page = await context.newPage()
    page.setDefaultTimeout(WAIT.timeout)
    const console: string[] = []
    const lists: string[] = []
    const subscribed: { channel: string; since?: unknown }[] = []
    page.on('console', (m) => void ((m.type() === 'error' || m.type() === 'warning') && console.push(m.text())))
    page.on('pageerror', (e) => console.push(e.message))
    page.on('request', (r: Request) => {
      if (
        r.method() === 'GET' &&
        r.url().startsWith(emulator.url) &&
        /\/v1\/conversations(\/[^/?]+)?(\?|$)/.test(r.url())
      )
        lists.push(r.url())
    })
    page.on('websocket', (ws) =>
      ws.on('framesent', ({ payload }) => {
        const frame = JSON.parse(String(payload)) as {
          type?: string
          channels?: { channel: string; since?: unknown }[]
        }
        if (frame.type === 'subscribe') subscribed.push(...(frame.channels ?? []))
      }),
    )
    await page.goto(`${server.url}${path}`)
    return { page, console, lists, subscribed }
  }

  it.runIf(CACHE_COMPONENTS)(
    "builds with its defaults (cacheComponents on): a static shell, the user's data streamed",
    () => {
      expect(built).toContain('Cache Components enabled')
      expect(built).toMatch(/◐ \/\n/) // Partial Prerender: the layout and heading at build, the inbox per request
    },
  )

  it.runIf(!CACHE_COMPONENTS)('builds with cacheComponents off: the page that prefetches renders per request', () => {
    expect(built).not.toContain('Cache Components enabled')
    expect(built).toMatch(/ƒ \/\n/) // Dynamic: prefetch's connection() (and the session's cookie) say so
  })

  it("serves the signed-in user's inbox in the server's HTML", async () => {
    const { data } = await api.support.conversations.list({ limit: 25 })
    const html = await (await fetch(`${server.url}/`, { headers: { cookie: `demo-user=${USER}` } })).text()
    expect(data.length).toBeGreaterThan(0)
    for (const c of data) expect(html).toContain(escapeHtml(c.subject))
  })

  it('hydrates with no warning and no list request, and the live list resumes from the server’s position', async () => {
    const { page, console, lists, subscribed } = await open('/')
    const rows = page.locator('li[data-id]')
    await rows.first().waitFor(WAIT)
    // Live: created elsewhere, it appears without a reload and without a list request.
    const mailboxId = (await api.support.mailboxes.list()).data[0]!.id
    const created = await api.support.conversations.create({
      mailboxId,
      subject: 'Opened while the fresh app was on screen',
      customer: { email: 'fresh@example.com', name: 'Fresh Reader' },
      text: 'Hello from create-next-app.',
    })
    await page.locator(`li[data-id="${created.id}"]`).waitFor(WAIT)
    expect(lists).toEqual([])
    expect(subscribed.find((s) => s.channel === 'support:conversations')).toHaveProperty('since')
    expect(console).toEqual([])
    await page.context().close()
  })

  it('streams a conversation page and hydrates it without a request', async () => {
    const { data } = await api.support.conversations.list({ limit: 1 })
    const c = data[0]!
    const { page, console, lists } = await open(`/conversations/${c.id}`)
    await page.getByRole('heading', { name: c.subject }).waitFor(WAIT)
    expect(lists).toEqual([])
    expect(console).toEqual([])
    expect(server.output()).not.toMatch(/Error/)
    await page.context().close()
  })
})
