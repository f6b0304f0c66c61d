// A hostile service (or token endpoint) cannot make a call outlive its deadline, follow a redirect
// to another origin, or eat the client's memory. Hand-written node:http servers on 127.0.0.1.
import { build } from 'esbuild'
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createClient, type ClientOptions } from '../index.js'
import { tick, waitUntil } from '../../../../test/utils/wait.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections()
          s.close(() => resolve())
        }),
    ),
  )
})

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_h', ...headers })
  res.end(JSON.stringify(body))
}
const page = { data: [], nextCursor: null }
const client = (baseUrl: string, o: Partial<ClientOptions> = {}) =>
  createClient({ baseUrl, auth: { fetchToken: async () => ({ token: 'tok', expiresIn: 600 }) }, ...o })

/**
 * What `p` settles with, on the test's clock: `ms` of it pass (timers only; sockets stay real), then
 * it must have settled. A call that waited out a longer timer (a 99999 s pause, 3 × 10 s token
 * attempts) has not, however fast or slow the machine.
 */
async function settledWithin<T>(start: () => Promise<T>, ms: number): Promise<unknown> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  let settled = false
  let error: unknown
  start().then(
    () => void (settled = true),
    (e: unknown) => void ((settled = true), (error = e)),
  )
  for (let passed = 0; passed < ms && !settled; passed += 100) {
    await tick() // the sockets' own turn, on the real clock
    await vi.advanceTimersByTimeAsync(Math.min(100, ms - passed))
  }
  await waitUntil(() => settled, { what: `the call settled once its ${ms} ms had passed` })
  vi.useRealTimers()
  return error
}

describe("a call's timeoutMs covers everything: the rate-limit queue, the token and the attempts", () => {
  it.each([
    ['Retry-After: 99999', '99999'],
    ['Retry-After: an HTTP date in 2100', 'Fri, 01 Jan 2100 00:00:00 GMT'],
  ])('after a 429 with %s, the next call with timeoutMs 2000 fails by then, with the wait', async (_, retryAfter) => {
    let n = 0
    const url = await serve((_req, res) =>
      ++n === 1
        ? json(res, 429, { error: { code: 'rate_limited' } }, { 'retry-after': retryAfter })
        : json(res, 200, page),
    )
    const tandem = client(url, { retry: { limit: 0 } })
    await expect(tandem.support.resources.list()).rejects.toMatchObject({ name: 'RateLimitError' })
    const error = await settledWithin(() => tandem.support.resources.list({}, { timeoutMs: 2_000 }), 2_000)
    expect(error).toMatchObject({ name: 'RateLimitError' })
    expect((error as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(2_000)
    expect(n).toBe(1) // nothing more was sent
  })

  it('a token endpoint that trickles bytes: a 2 s call fails as a TimeoutError at 2 s, not after 3 × 10 s', async () => {
    const tokens = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const t = setInterval(() => res.write(' '), 200) // a byte now and then, never the end
      res.on('close', () => clearInterval(t))
    })
    const service = await serve((_req, res) => json(res, 200, page))
    const tandem = createClient({ baseUrl: service, auth: { url: `${tokens}/token` } })
    const error = await settledWithin(() => tandem.maps.resources.list({}, { timeoutMs: 2_000 }), 2_000)
    expect(error).toMatchObject({ name: 'TimeoutError', code: 'timeout' })
  })
})

describe('redirects are never followed', () => {
  it.each([
    ['GET', 302],
    ['POST', 307],
  ] as const)(
    '%s answered %i to another origin: ApiError unexpected_redirect naming it; nothing reaches it',
    async (method, status) => {
      const reached: string[] = []
      const other = await serve((req, res) => {
        reached.push(`${req.method} ${req.headers['idempotency-key'] ?? ''}`)
        json(res, 200, { data: [{ id: 'evil', name: 'evil' }], nextCursor: null })
      })
      const url = await serve((_req, res) => {
        res.writeHead(status, { location: `${other}/support/v1/resources`, 'x-request-id': 'req_r' })
        res.end()
      })
      const tandem = client(url)
      const call = method === 'GET' ? tandem.support.resources.list() : tandem.support.resources.create({ name: 'x' })
      const error = await call.catch((e: unknown) => e)
      expect(error).toMatchObject({ name: 'ApiError', code: 'unexpected_redirect', status, requestId: 'req_r' })
      expect((error as Error).message).toContain(new URL(other).origin)
      expect(reached).toEqual([])
    },
  )
})

describe('response size', () => {
  it('a 50 MB body fails with ApiError response_too_large, read only up to the cap', async () => {
    let sent = 0
    const chunk = Buffer.alloc(64 * 1024, 'a')
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_big' })
      res.write('{"data":"')
      const pump = () => {
        while (sent < 50e6 && !res.destroyed) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        if (!res.destroyed) res.end('"}')
      }
      pump()
    })
    const error = await client(url, { retry: false })
      .support.resources.list()
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ApiError', code: 'response_too_large', status: 200, requestId: 'req_big' })
    expect(sent).toBeLessThan(20e6) // the client stopped reading: the rest was never sent
  })

  it('maxResponseBytes is configurable, and a Content-Length past it fails before the body is read', async () => {
    const at = '2024-07-05T10:00:00.000Z'
    const url = await serve((_req, res) =>
      // A resource as the contract states it (every answer is checked against it), with a long id.
      json(res, 200, {
        data: [
          {
            id: `res_${'x'.repeat(2_000)}`,
            name: 'y',
            service: 'support',
            attributes: {},
            createdAt: at,
            updatedAt: at,
          },
        ],
        nextCursor: null,
      }),
    )
    const error = await client(url, { maxResponseBytes: 1_000, retry: false })
      .support.resources.list()
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'ApiError', code: 'response_too_large' })
    await expect(client(url, { maxResponseBytes: 10_000 }).support.resources.list()).resolves.toMatchObject({
      data: [{ name: 'y' }],
    })
  })

  it('peak RSS of a fresh process reading a 50 MB body stays under 100 MB', async () => {
    // The client bundled from src and run in its own process, so its peak RSS is its own.
    const dir = mkdtempSync(join(tmpdir(), 'tandem-rss-'))
    const script = join(dir, 'client.mjs')
    await build({
      stdin: {
        contents: `import { createClient } from '@tandem/core'
          const tandem = createClient({ baseUrl: process.argv[2], auth: { fetchToken: async () => ({ token: 't', expiresIn: 600 }) }, retry: false })
          const error = await tandem.support.resources.list().catch((e) => e)
          console.log(JSON.stringify({ code: error?.code, rssMiB: process.resourceUsage().maxRSS / 1024 }))`,
        resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      conditions: ['@tandem/source'],
      outfile: script,
      logLevel: 'silent',
    })
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}')
    const chunk = Buffer.alloc(64 * 1024, 'a')
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      let sent = 0
      const pump = () => {
        while (sent < 50e6 && !res.destroyed) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        if (!res.destroyed) res.end()
      }
      pump()
    })
    const { stdout } = await promisify(execFile)(process.execPath, [script, url], { timeout: 20_000 })
    const { code, rssMiB } = JSON.parse(stdout) as { code: string; rssMiB: number }
    console.log(`[hostile] 50 MB body: ${code}, peak RSS ${rssMiB.toFixed(1)} MiB`)
    expect(code).toBe('response_too_large')
    expect(rssMiB).toBeLessThan(100)
  })
})
