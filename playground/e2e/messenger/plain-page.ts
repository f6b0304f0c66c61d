// The plain page of packages/messenger/README.md ("One script tag") and README.md, served as they
// write it (../messenger-plain-page.test.ts): plain-page.html and its policy, plain-page.http, are
// the docs' code blocks (`<!-- code: … -->`, scripts/docs-code.mjs checks that they match), with
// the services' address (`https://api.tandem.dev`) put to the emulator's and nothing else changed.
// `/tandem/*` is the package's dist/browser folder (scripts/build-browser.mjs), `/api/tandem-token`
// a customer token as the page's backend mints it.
import { readFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { answerCustomerToken } from './customer-token.js'

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))
const BROWSER_DIR = here('../../../packages/messenger/dist/browser/')
const SERVICES = 'api.tandem.dev'

/** The page and its policy, as the docs show them. */
export function documentedPage(): { html: string; csp: string } {
  const html = readFileSync(here('./plain-page.html'), 'utf8')
  const csp = /^Content-Security-Policy: (.+)$/m.exec(readFileSync(here('./plain-page.http'), 'utf8'))?.[1]
  if (!csp) throw new Error('plain-page.http: expected one Content-Security-Policy header')
  return { html, csp }
}

/** `text` with every `https://api.tandem.dev` (and `wss://`) put to the emulator's address; `count` of each there must be. */
function toEmulator(text: string, emu: string, count: { https: number; wss: number }): string {
  const found = { https: text.split(`https://${SERVICES}`).length - 1, wss: text.split(`wss://${SERVICES}`).length - 1 }
  if (found.https !== count.https || found.wss !== count.wss)
    throw new Error(
      `expected ${JSON.stringify(count)} mentions of the services' address, found ${JSON.stringify(found)}`,
    )
  const host = new URL(emu).host
  return text.replaceAll(`https://${SERVICES}`, `http://${host}`).replaceAll(`wss://${SERVICES}`, `ws://${host}`)
}

export interface PlainPage {
  url: string
  emu: Emulator
  customer: string
  /** The policy as sent (the README's, with the emulator's address). */
  csp: string
  /** Every path the browser asked for, in order. */
  requested: string[]
  close(): Promise<void>
}

export async function servePlainPage(customer = 'cus_plain'): Promise<PlainPage> {
  const emu = await startEmulator({ port: 0, host: '127.0.0.1' })
  const page = documentedPage()
  const html = toEmulator(page.html, emu.url, { https: 1, wss: 0 })
  const csp = toEmulator(page.csp, emu.url, { https: 1, wss: 1 })
  const requested: string[] = []
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    requested.push(path)
    const send = (type: string, body: string) => {
      res.writeHead(200, { 'content-type': type, 'content-security-policy': csp, 'cache-control': 'no-store' })
      res.end(body)
    }
    if (path === '/') return send('text/html; charset=utf-8', html)
    // An icon of the page's own origin: Chromium reports a missing one's fallback as nothing, a `data:` one as img-src.
    if (path === '/favicon.ico') return void (res.writeHead(204, { 'content-security-policy': csp }), res.end())
    const file = /^\/tandem\/(tandem-messenger[\w-]*\.js)$/.exec(path)?.[1]
    if (file)
      return void readFile(`${BROWSER_DIR}${file}`, 'utf8').then(
        (body) => send('text/javascript', body),
        () => (res.writeHead(404), res.end()),
      )
    if (path === '/api/tandem-token' && req.method === 'POST') return answerCustomerToken(emu, customer, res)
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    emu,
    customer,
    csp,
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
