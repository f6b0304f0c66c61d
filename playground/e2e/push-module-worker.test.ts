// handlePush in a plain module service worker, no bundler (issue 47): the built `dist` as it is,
// registered with `{ type: 'module' }`, no importScripts, no `process`, no DOM. A worker has no
// import map (browsers apply a page's map to the page only), so this server does what a CDN such
// as esm.sh does: it writes each bare specifier as the URL the packages' exports name
// (no-bundler/import-map.ts). A push is delivered over CDP, as in push-worker.test.ts.
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, WAIT } from './harness.js'
import { importMapFor } from './no-bundler/import-map.js'
import { pushCdp } from './push-harness.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** The page registers the worker; the worker is three lines of an app's own. */
function serve(map: Record<string, string>): Promise<Server> {
  const bare = (code: string) =>
    code.replace(
      /(\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"./][^'"]*)\2/g,
      (all, lead: string, q: string, spec: string) => (map[spec] ? `${lead}${q}${map[spec]}${q}` : all),
    )
  const files: Record<string, string> = {
    '/': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Module worker</title></head>
<body><script type="module">navigator.serviceWorker.register('/sw.js', { type: 'module' })</script></body></html>`,
    '/sw.js': bare(`import { handlePush } from '@tandem/core/push-worker'
handlePush(self, { baseUrl: self.location.origin })
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))`),
  }
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!)
    const own = files[path]
    if (own !== undefined) {
      res.writeHead(200, { 'content-type': path === '/' ? 'text/html; charset=utf-8' : 'text/javascript' })
      return void res.end(own)
    }
    const servable = /^\/(?:packages\/[\w-]+\/dist|(?:packages\/[\w-]+\/)?node_modules)\/[^]*\.m?js$/.test(path)
    if (!servable || path.includes('..')) return void (res.writeHead(404), res.end())
    readFile(`${ROOT}${path.slice(1)}`, 'utf8').then(
      (body) => (res.writeHead(200, { 'content-type': 'text/javascript' }), res.end(bare(body))),
      () => (res.writeHead(404), res.end()),
    )
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

describe.skipIf(!hasChromium)('handlePush in a plain module service worker (dist, no bundler)', () => {
  let server: Server
  let browser: Browser

  beforeAll(async () => {
    // dist is brought up to date by global-setup.ts.
    const { imports } = await importMapFor(['@tandem/core/push-worker'], ROOT)
    ;[server, browser] = await Promise.all([
      serve(imports),
      chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] }),
    ])
  })

  afterAll(async () => {
    await browser?.close()
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  })

  it('runs: a push delivered to it is shown as a notification', async () => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const context = await browser.newContext()
    const page = await context.newPage()
    page.setDefaultTimeout(WAIT.timeout)
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(`${origin}/`)
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, WAIT)
    const { deliver } = await pushCdp(page, origin)
    const push = (messageId: string) =>
      deliver(
        JSON.stringify({
          v: 1,
          type: 'message',
          channel: 'support:conversations',
          messageId,
          conversationId: `cnv_${messageId}`,
          title: 'Ada',
          body: 'Hello',
          url: null,
          sentAt: '2026-11-29T12:00:00.000Z',
        }),
      )
    await push('thr_1')
    await push('thr_1')
    await push('thr_2')
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => `${n.tag} ${n.title}`).sort(),
      )
    await expect.poll(shown, WAIT).toEqual(['cnv_thr_1 Ada', 'cnv_thr_2 Ada'])
    expect(errors).toEqual([])
    await context.close()
  })
})
