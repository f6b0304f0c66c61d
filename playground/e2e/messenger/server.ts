// The messenger's test page, served under a strict Content-Security-Policy with Trusted Types
// required (so an innerHTML anywhere throws and is reported; the page's one policy admits only
// /axe.js as a script URL, for the test to add): `/` the page,
// `/watch.js` the violation recorder (a file: no inline script), `/assets/*` the page bundled by
// esbuild (splitting: the panel is a chunk of its own), `/axe.js` for the test to add as a file
// (the policy refuses it inline), `/token` a customer token, as an app's backend would mint it. The services are an emulator of their own origin (`?api=` tells the
// page where), which the policy's `connect-src` lets the page reach.
import { build } from 'esbuild'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { answerCustomerToken } from './customer-token.js'

export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self' ws: http:; img-src 'self'; object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'"

/** Records every CSP violation in `window.__violations`, before any other script runs. */
const WATCH = `window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI), true);
trustedTypes.createPolicy('default', { createScriptURL: (url) => (new URL(url, location.href).pathname === '/axe.js' ? url : null) });`

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

const HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Messenger under a strict CSP</title>
    <link rel="icon" href="/favicon.ico" />
    <script src="/watch.js"></script>
    <script type="module" src="/assets/page.js"></script>
  </head>
  <body>
    <main><h1>A shop</h1><p>Questions? The messenger is in the corner.</p></main>
    <tandem-messenger></tandem-messenger>
  </body>
</html>`

export interface MessengerPage {
  url: string
  emu: Emulator
  /** The customer the page's tokens name. */
  customer: string
  /** The chunk that holds the panel, the one that renders an article's Markdown, and the assets the browser asked for. */
  panelChunk: string
  /** Undefined when the renderer is not a chunk of its own. */
  markdownChunk: string | undefined
  requested: string[]
  close(): Promise<void>
}

export async function serveMessengerPage(customer = 'cus_e2e'): Promise<MessengerPage> {
  const emu = await startEmulator({ port: 0, host: '127.0.0.1' })
  const bundle = await build({
    entryPoints: { page: fileURLToPath(new URL('./page.ts', import.meta.url)) },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: '/assets',
    write: false,
    metafile: true,
    conditions: ['@tandem/source'],
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  })
  const assets = new Map(bundle.outputFiles.map((f) => [f.path, f.text]))
  const panelChunk = Object.entries(bundle.metafile.outputs).find(([, o]) =>
    Object.keys(o.inputs).some((i) => i.endsWith('messenger/src/panel/index.ts')),
  )?.[0]
  if (!panelChunk) throw new Error('the panel is not a chunk of its own')
  const markdownChunk = Object.entries(bundle.metafile.outputs).find(([, o]) =>
    Object.keys(o.inputs).some((i) => i.endsWith('messenger/src/markdown/render.ts')),
  )?.[0]
  const requested: string[] = []

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    const send = (type: string, body: string) => {
      res.writeHead(200, { 'content-type': type, 'content-security-policy': CSP, 'cache-control': 'no-store' })
      res.end(body)
    }
    if (path === '/') return send('text/html; charset=utf-8', HTML)
    if (path === '/watch.js') return send('text/javascript', WATCH)
    if (path === '/axe.js') return send('text/javascript', AXE)
    // An icon of the page's own origin: Chromium 156 reports a `data:` icon as an img-src violation.
    if (path === '/favicon.ico') return void (res.writeHead(204, { 'content-security-policy': CSP }), res.end())
    const asset = assets.get(path)
    if (asset !== undefined) {
      requested.push(path)
      return send('text/javascript', asset)
    }
    if (path === '/token' && req.method === 'POST') return answerCustomerToken(emu, customer, res)
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/?api=${encodeURIComponent(emu.url)}`,
    emu,
    customer,
    panelChunk: `/${panelChunk.replace(/^.*?assets\//, 'assets/')}`,
    markdownChunk: markdownChunk && `/${markdownChunk.replace(/^.*?assets\//, 'assets/')}`,
    requested,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
      await emu.close()
    },
  }
}
