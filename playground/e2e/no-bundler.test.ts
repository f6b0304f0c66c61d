// The built packages in a page without a bundler (issue 45 row 3): `dist` loaded as it is, through
// an import map generated from the packages' exports (no-bundler/import-map.ts) and nothing else,
// no `process` shim, in Chromium. Each refusal is the typed error (name, code, the short production
// message with its link), never `ReferenceError: process is not defined`.
import { startEmulator, type Emulator } from '@tandem/emulator'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, WAIT } from './harness.js'
import { importMapFor } from './no-bundler/import-map.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const LINK = 'https://tandem.dev/e/'
/** What the page imports; the map holds these and everything they import in turn. */
const ENTRIES = [
  '@tandem/core',
  '@tandem/core/client',
  '@tandem/core/maps',
  '@tandem/core/messenger',
  '@tandem/realtime',
  '@tandem/messenger',
  '@tandem/devtools',
]

/** A page with the import map alone, and the built files (JavaScript only) from the repository. */
async function servePage(map: { imports: Record<string, string> }): Promise<Server> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>No bundler</title>
<script type="importmap">${JSON.stringify(map)}</script></head><body><main>A page without a bundler</main></body></html>`
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!)
    if (path === '/') return void (res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }), res.end(html))
    if (path === '/favicon.ico') return void (res.writeHead(204), res.end())
    const servable = /^\/(?:packages\/[\w-]+\/dist|(?:packages\/[\w-]+\/)?node_modules)\/[^]*\.m?js$/.test(path)
    if (!servable || path.includes('..')) return void (res.writeHead(404), res.end())
    readFile(`${ROOT}${path.slice(1)}`, 'utf8').then(
      (body) => (res.writeHead(200, { 'content-type': 'text/javascript' }), res.end(body)),
      () => (res.writeHead(404), res.end()),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

describe.skipIf(!hasChromium)('the built packages in a page without a bundler (no import shim, no process)', () => {
  let emu: Emulator
  let server: Server
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    // dist is brought up to date by global-setup.ts.
    const map = await importMapFor(ENTRIES, ROOT)
    ;[emu, server, browser] = await Promise.all([
      startEmulator({ port: 0, host: '127.0.0.1' }),
      servePage(map),
      chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] }),
    ])
    page = await browser.newPage()
    page.setDefaultTimeout(WAIT.timeout)
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
  })

  afterAll(async () => {
    await browser?.close()
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
    await emu?.close()
  })

  /** Runs `body` (page JavaScript, an async function's body) in the page: a string, because Vitest rewrites `import()` in this file. */
  const inPage = <T>(body: string, arg?: unknown): Promise<T> =>
    page.evaluate(`(async (arg) => { ${body} })(${JSON.stringify(arg ?? null)})`) as Promise<T>

  it('every refusal and every error answer is a typed TandemError with its code', async () => {
    type Caught = { name: string; message: string; code?: string; field?: string; status?: number }
    const errors = await inPage<Record<string, Caught> & { process: string }>(
      `
      const plain = ({ name, message, code, field, status }) => ({ name, message, code, field, status })
      const caught = async (f) => { try { await f(); return { name: 'none' } } catch (e) { return plain(e) } }
      const { createClient } = await import('@tandem/core/client')
      const { geocode, maps } = await import('@tandem/core/maps')
      const full = await import('@tandem/core')
      const { createRealtime } = await import('@tandem/realtime')
      const { messenger } = await import('@tandem/core/messenger')
      const api = arg
      const client = createClient({ baseUrl: api, auth: { url: api + '/dev/token' }, retry: false })
      return {
        process: typeof globalThis.process,
        query: await caught(() => geocode(client, { query: '' })),
        key: await caught(() => createClient({ baseUrl: api + '?api_key=k', auth: { url: api } })),
        notFound: await caught(() => maps(client).resources.get('no-such-place')),
        fullClient: await caught(() => full.createClient({ baseUrl: api, auth: { url: api + '?token=t' } })),
        channel: await caught(() => createRealtime({ client }, { autoConnect: false }).channel('no spaces')),
        messenger: await caught(() => messenger(client, { realtime: {} })),
      }`,
      emu.url,
    )

    expect(errors.process).toBe('undefined')
    expect(errors.query).toEqual({
      name: 'ValidationError',
      message: `query: validation_error ${LINK}validation_error`,
      code: 'validation_error',
      field: 'query',
    })
    expect(errors.key).toMatchObject({ name: 'ValidationError', code: 'validation_error', field: 'baseUrl' })
    expect(errors.notFound).toMatchObject({ name: 'ApiError', code: 'not_found', status: 404 })
    expect(errors.notFound!.message).toMatch(new RegExp(`${LINK}not_found$`))
    expect(errors.fullClient).toMatchObject({ name: 'ValidationError', code: 'validation_error', field: 'auth.url' })
    expect(errors.channel).toMatchObject({ name: 'ValidationError', code: 'validation_error', field: 'channel' })
    expect(errors.messenger).toMatchObject({ name: 'ValidationError', code: 'validation_error', field: 'realtime' })
  })

  it('the messenger element registers, and the devtools are off, as in production, without a throw', async () => {
    const result = await inPage(`
      const { defineMessenger } = await import('@tandem/messenger')
      const { createDevtoolsRecorder, mountDevtools } = await import('@tandem/devtools')
      defineMessenger()
      const el = document.createElement('tandem-messenger')
      document.body.append(el)
      const unmount = mountDevtools({})
      unmount()
      return {
        launcher: el.shadowRoot.querySelector('button.launcher') !== null,
        unmount: typeof unmount,
        recorder: typeof createDevtoolsRecorder({}),
        devtools: document.querySelector('tandem-devtools') !== null,
      }`)
    expect(result).toEqual({ launcher: true, unmount: 'function', recorder: 'undefined', devtools: false })
  })
})
