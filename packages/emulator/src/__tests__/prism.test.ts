// A third party holds the emulator to its document: Prism (@stoplight/prism-cli) in proxy mode with
// `--errors` in front of the emulator, so a request or an answer that breaks openapi.json is an
// error, not a warning. Every documented request of every operation (`x-tandem-examples`: tokens
// with the scope each needs, a customer's own token, the app's raw key in the header) goes through
// it. One Prism process for the file: it takes a few seconds to start.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { createRequire } from 'node:module'
import { openapi } from '@tandem/contract/spec'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slack, waitUntil } from '../../../../test/utils/wait.js'
import { call, useEmulator } from './helpers.js'
import { credentials, documented, RAW_KEY, target, type Json, type RestRequest } from './spec/documented.js'

// No rate limits: the requests run one after another and the point is the contract, not the plan.
const emu = useEmulator({ plans: { maps: false, support: false, realtime: false } })
const credential = credentials(emu)
const require = createRequire(import.meta.url)

let prism: ChildProcess | undefined
let prismUrl = ''
/** What Prism printed: its error lines say which rule a request or answer broke. */
let output = ''

/** A port nobody holds now (Prism takes a port number, not 0). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

beforeAll(async () => {
  const started = performance.now()
  const port = await freePort()
  prismUrl = `http://127.0.0.1:${port}`
  const bin = require.resolve('@stoplight/prism-cli/dist/index.js')
  const document = require.resolve('@tandem/contract/openapi.json')
  const args = ['proxy', '--errors', '-h', '127.0.0.1', '-p', String(port), '-v', 'warn', document, emu().url]
  prism = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  prism.stdout?.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  prism.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  let exited = false
  prism.once('exit', () => void (exited = true))
  let ready = false
  const probe = () =>
    void fetch(`${prismUrl}/`).then(
      () => void (ready = true),
      () => undefined,
    )
  const timer = setInterval(probe, 100)
  try {
    await waitUntil(() => ready || exited, { timeoutMs: slack(20_000), what: `Prism listening on ${prismUrl}` })
  } finally {
    clearInterval(timer)
  }
  if (!ready) throw new Error(`Prism exited before listening:\n${output}`)
  console.info(`[prism] listening after ${Math.round(performance.now() - started)} ms`)
}, slack(30_000))

afterAll(async () => {
  if (!prism || prism.exitCode !== null) return
  const gone = new Promise((resolve) => prism!.once('exit', resolve))
  prism.kill()
  await gone
})

/** The statuses an operation documents: its own (the shared 429 among them), and any error through `default`. */
function documents(template: string, method: string, status: number): boolean {
  const operation = (openapi.paths as Record<string, Record<string, Json>>)[template]![method.toLowerCase()]!
  const own = operation.responses as Json
  return String(status) in own || (status >= 400 && 'default' in own)
}

async function throughPrism(r: RestRequest): Promise<Response> {
  const headers = new Headers(r.headers)
  const bearer = await credential(r.caller)
  if (bearer !== undefined) headers.set('Authorization', `Bearer ${bearer}`)
  if (r.body !== undefined) headers.set('Content-Type', 'application/json')
  return fetch(`${prismUrl}${target(r)}`, {
    method: r.method,
    headers,
    ...(r.body !== undefined ? { body: JSON.stringify(r.body) } : {}),
  })
}

describe('Prism in strict proxy mode, in front of the emulator', () => {
  it(
    'passes every documented request of every operation, and each answer is the documented one',
    async () => {
      const all = documented()
      const operations = new Set(all.map((d) => d.operationId))
      expect(operations.size).toBeGreaterThanOrEqual(35)
      expect(all.filter((d) => d.example.caller === 'raw-key').length).toBeGreaterThanOrEqual(3)
      const wrong: string[] = []
      for (const d of all) {
        const res = await throughPrism(d.request)
        const text = await res.text()
        const what = `${d.operationId} "${d.example.summary}": ${res.status}`
        const violations = res.headers.get('sl-violations')
        // Prism's own refusals are problem+json and carry no X-Request-Id: the emulator never saw them.
        if (violations) wrong.push(`${what}, sl-violations ${violations}`)
        else if (!res.headers.get('x-request-id')) wrong.push(`${what} from Prism itself: ${text.slice(0, 400)}`)
        else if (res.status !== d.example.status)
          wrong.push(`${what}, documented ${d.example.status}: ${text.slice(0, 300)}`)
        else if (!documents(d.template, d.method, res.status)) wrong.push(`${what} is not in the operation's responses`)
      }
      console.info(
        `[prism] ${all.length} documented requests of ${operations.size} operations through Prism --errors: ${all.length - wrong.length} passed`,
      )
      expect(wrong, output.slice(-2000)).toEqual([])
      expect(output).not.toMatch(/violation/i)
    },
    slack(20_000),
  )

  it('the check can fail: an answer off the document is a violation Prism reports', async () => {
    const list = documented().find((d) => d.operationId === 'listMailboxes')!
    emu().faults.respondNext(1, { service: 'support', status: 200, body: '{"data":"not a list"}' })
    const res = await throughPrism(list.request)
    const text = await res.text()
    expect(res.headers.get('sl-violations') ?? text, text).toMatch(/data/)
    expect(res.status).toBe(500)
  })

  it('Prism and the emulator refuse the same undocumented requests: a key in the URL, a repeated parameter', async () => {
    const token = await emu().mintToken({ scope: ['support:read'] })
    const cases = [
      // The document has one scheme, the Authorization header: Prism refuses a bare ?key= itself.
      { path: `/maps/v1/resources?key=${encodeURIComponent(RAW_KEY)}`, token: undefined, code: 'key_in_url' },
      { path: '/support/v1/conversations?status=active&status=closed', token, code: 'invalid_parameter' },
    ]
    for (const c of cases) {
      const direct = await call(emu(), c.path, c.token ? { token: c.token } : {})
      expect(direct.status, c.path).toBeGreaterThanOrEqual(400)
      expect(((await direct.json()) as { error: { code: string } }).error.code, c.path).toBe(c.code)
      const proxied = await fetch(`${prismUrl}${c.path}`, {
        headers: c.token ? { authorization: `Bearer ${c.token}` } : {},
      })
      expect(proxied.status, `${c.path} through Prism`).toBeGreaterThanOrEqual(400)
      await proxied.body?.cancel()
    }
  })
})
