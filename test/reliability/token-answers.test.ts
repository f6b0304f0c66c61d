// A token endpoint that answers something other than a token: an HTML page with status 200 (an
// SPA fallback during a deploy, a captive portal), a 404, a 503, and one whose error bodies stall
// forever. Realtime waits these out and connects on its own; only a refusal (401/403) is final.
// Every body the SDK does not read is cancelled, so no socket is held until garbage collection.
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import { createClient, createTokenProvider, isAuthError, type RealtimeError } from '@tandem/core'
import { DEV_APP, startEmulator, type Emulator } from '@tandem/emulator'
import { createRealtime, type StateChange } from '@tandem/realtime'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { untilState } from '../utils/harness.js'
import { mulberry32, printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { during, waitUntil } from '../utils/wait.js'

const FILE = 'token-answers'
const SEED = seedFrom(0x70c)
const at = replay(SEED, FILE)

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

type Answer = (req: IncomingMessage, res: ServerResponse) => void

interface Hostile {
  url: string
  requests: number
  /** Sockets open now that carried a request (fetch's pool may hold a spare idle one a few seconds). */
  held: () => number
  /** The most sockets that carried a request open at once. */
  peak: number
}

/** A token endpoint on 127.0.0.1 that gives `answers` in turn (the last one from then on), and counts its sockets. */
async function hostile(answers: Answer[]): Promise<Hostile> {
  const sockets = new Set<Socket>()
  const used = new Set<Socket>()
  const state = { requests: 0, peak: 0 }
  const server: Server = createServer((req, res) => {
    used.add(req.socket)
    state.peak = Math.max(state.peak, used.size)
    const answer = answers[Math.min(state.requests++, answers.length - 1)]!
    answer(req, res)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => {
      sockets.delete(socket)
      used.delete(socket)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  cleanups.push(async () => {
    for (const s of sockets) s.destroy()
    server.close()
    await once(server, 'close')
  })
  const { port } = server.address() as AddressInfo
  return Object.defineProperties(
    { url: `http://127.0.0.1:${port}/api/tandem-token`, held: () => used.size },
    {
      requests: { get: () => state.requests },
      peak: { get: () => state.peak },
    },
  ) as Hostile
}

const html: Answer = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
  res.end('<!doctype html><html><body><div id="root"></div></body></html>')
}
const status =
  (code: number): Answer =>
  (_req, res) => {
    res.writeHead(code, { 'content-type': 'text/plain' })
    res.end(`status ${code}`)
  }
/** The headers, a first chunk, then nothing ever: the body never ends. */
const stalled =
  (code: number, headers: Record<string, string> = {}): Answer =>
  (_req, res) => {
    res.writeHead(code, { 'content-type': 'text/plain', ...headers })
    res.write('the rest never comes')
  }

/** A 200 whose body goes on for ever, in 16 kB chunks of JSON-looking text, with no declared length. */
const endless: Answer = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' })
  const chunk = `{"token":"${'x'.repeat(16_384)}`
  const more = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more)
  }
  more()
}
/** A 200 that declares a 1 MB body and sends a first chunk of it. */
const declaredHuge: Answer = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1 << 20) })
  res.write('{"token":"')
}

async function emulator(): Promise<Emulator> {
  const emu = await startEmulator({ seed: SEED, apps: [DEV_APP] })
  cleanups.push(() => emu.close())
  return emu
}

describe('token endpoint answers that are not tokens', () => {
  it('HTML 200, then 404, then 503, then a token: realtime reconnects on its own (no connect() after the first), the reason in state events and lastError', async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await emulator()
    const token = await emu.mintToken({ subject: 'user_1', scope: ['realtime'] })
    const real: Answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ token, expiresIn: 600 }))
    }
    const endpoint = await hostile([html, status(404), status(503), real])
    const rt = createRealtime(
      { auth: { url: endpoint.url }, url: `${emu.url}/realtime` },
      { WebSocket, backoff: { baseMs: 20, capMs: 100 }, random: mulberry32(SEED) },
    )
    cleanups.push(() => rt.close())
    const states: StateChange[] = []
    const errors: RealtimeError[] = []
    const lastErrors = new Set<string>()
    rt.on('state', (s) => {
      states.push(s)
      if (rt.lastError) lastErrors.add(rt.lastError.code)
    })
    rt.on('error', (e) => void errors.push(e))
    const started = performance.now()
    rt.connect() // the only call: nothing after a bad answer
    await waitUntil(
      () => {
        if (rt.state === 'failed') throw new Error(`failed on ${rt.lastError?.code}: ${rt.lastError?.message}; ${at}`)
        return rt.state === 'connected'
      },
      { timeoutMs: 20_000, what: `realtime connected (now ${rt.state}); ${at}`, on: (cb) => rt.on('state', cb) },
    )
    const took = performance.now() - started

    expect(
      states.map((s) => s.current),
      `never failed; ${at}`,
    ).not.toContain('failed')
    const reasons = states.filter((s) => s.reason === 'token_unavailable').map((s) => s.error?.code)
    // The 503 is retried inside the provider's own getToken (its next answer is the token): the
    // page and the 404 are the ones realtime sees and waits out.
    expect(new Set(reasons), `the reasons said in state events; ${at}`).toEqual(
      new Set(['invalid_token_response', 'token_endpoint_error']),
    )
    expect([...lastErrors].sort(), `lastError between; ${at}`).toEqual([
      'invalid_token_response',
      'token_endpoint_error',
    ])
    expect(rt.lastError, `cleared once connected; ${at}`).toBeUndefined()
    const page = errors.find((e) => e.code === 'invalid_token_response')
    expect(page?.message, at).toMatch(/answered 200 text\/html, not a JSON token/)
    expect(page?.temporary, at).toBe(true)
    expect(errors.find((e) => e.code === 'token_endpoint_error')?.message, at).toMatch(/answered 404/)
    expect(
      errors.map((e) => e.code),
      `one error event per failure (the provider's cool-down repeats it, unsaid): ${errors.map((e) => e.message).join(' / ')}; ${at}`,
    ).toEqual(['invalid_token_response', 'token_endpoint_error'])
    expect(endpoint.requests, `HTML, 404, 503, token; ${at}`).toBe(4)
    console.info(
      `[token-answers] HTML 200, 404, 503, token: connected in ${took.toFixed(0)} ms after ${endpoint.requests} token requests, ${states.filter((s) => s.reason === 'token_unavailable').length} reconnecting events, ${errors.length} error events; ${at}`,
    )
  })

  it('REST fails the one call on an HTML page, names it, and a later call gets a token', async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await emulator()
    const token = await emu.mintToken({ subject: 'user_1', scope: ['maps'] })
    const real: Answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ token, expiresIn: 600 }))
    }
    const endpoint = await hostile([html, real])
    const client = createClient({ baseUrl: emu.url, auth: { url: endpoint.url }, retry: false })
    const e = await client.maps.resources.list({ limit: 1 }).catch((x: unknown) => x)
    expect(isAuthError(e) && e.code === 'invalid_token_response', `${String(e)}; ${at}`).toBe(true)
    expect((e as Error).message, at).toMatch(/answered 200 text\/html, not a JSON token/)
    // The provider's cool-down (0.5–1 s after a first failure) fails calls fast, then it fetches again.
    const started = performance.now()
    for (;;) {
      const page = await client.maps.resources.list({ limit: 1 }).catch(() => undefined)
      if (page) break
      if (performance.now() - started > 5_000) throw new Error(`no REST call after the page within 5 s; ${at}`)
      await during(50) // an app retrying now and then
    }
    expect(endpoint.requests, `the page, then the token; ${at}`).toBe(2)
  })

  it('a refusal (401) is still final for realtime: failed, no retries', async () => {
    printSeedOnFailure(SEED, FILE)
    const endpoint = await hostile([status(401)])
    const rt = createRealtime(
      { auth: { url: endpoint.url }, url: 'http://127.0.0.1:9/realtime' },
      { WebSocket, backoff: { baseMs: 5, capMs: 10 } },
    )
    cleanups.push(() => rt.close())
    rt.connect()
    await untilState(rt, 'failed')
    expect(rt.lastError?.code, at).toBe('token_refused')
    await during(200) // would-be retries (5–10 ms backoff) get time to show up
    expect(endpoint.requests, `no retry after a refusal; ${at}`).toBe(1)
  })

  it('a token endpoint that answers 404 for ever (a wrong auth.url) is retried, and said once: unreachable, naming it', async () => {
    printSeedOnFailure(SEED, FILE)
    const endpoint = await hostile([status(404)])
    // Core's cool-down (0.5 s doubling) would space five fetches over seconds: a clock that jumps a
    // minute per reading lets each attempt fetch again, as it would over a longer outage.
    let clock = Date.now()
    const auth = createTokenProvider({ url: endpoint.url }, { now: () => (clock += 60_000) })
    const rt = createRealtime(
      { auth, url: 'http://127.0.0.1:9/realtime' },
      { WebSocket, backoff: { baseMs: 5, capMs: 10 } },
    )
    cleanups.push(() => rt.close())
    const errors: RealtimeError[] = []
    rt.on('error', (e) => void errors.push(e))
    rt.connect()
    await waitUntil(() => errors.some((e) => e.code === 'unreachable'), { what: `an unreachable error; ${at}` })
    const said = errors.find((e) => e.code === 'unreachable')!
    expect(said.message, at).toMatch(/^Could not get a token in 5 attempts \(last: .*\/api\/tandem-token.*404/)
    expect(said.message, at).toMatch(/Is auth\.url right/)
    await during(200) // later attempts (5–10 ms backoff) do not say it again
    expect(
      errors.filter((e) => e.code === 'unreachable'),
      at,
    ).toHaveLength(1)
    expect(rt.state, at).toBe('reconnecting')
    expect(endpoint.requests, `five requests before it is said; ${at}`).toBeGreaterThanOrEqual(5)
    expect(
      errors.filter((e) => e.code === 'token_endpoint_error'),
      `the 404 said once; ${at}`,
    ).toHaveLength(1)
  })

  it('error answers whose bodies stall forever (503, 302) hold no socket: every unread body is cancelled', async () => {
    printSeedOnFailure(SEED, FILE)
    const down = await hostile([stalled(503)])
    const moved = await hostile([stalled(302, { location: '/login' })])
    // Three providers as three tabs' worth of clients; random 0: the provider's retries go at once.
    const providers = [0, 1, 2].map(() => createTokenProvider({ url: down.url }, { random: () => 0 }))
    const failures = await Promise.all(providers.map((p) => p.getToken().catch((e: unknown) => e)))
    for (const e of failures)
      expect(isAuthError(e) && e.code === 'token_endpoint_unavailable', `${String(e)}; ${at}`).toBe(true)
    const redirect = await createTokenProvider({ url: moved.url })
      .getToken()
      .catch((e: unknown) => e)
    expect(isAuthError(redirect) && redirect.code === 'token_endpoint_error', `${String(redirect)}; ${at}`).toBe(true)
    expect(down.requests, `3 attempts per getToken; ${at}`).toBe(9)
    const before = down.held() + moved.held()
    const started = performance.now()
    // The sockets close once the client cancels the bodies; without that, they stay until GC.
    await waitUntil(() => down.held() + moved.held() === 0, {
      timeoutMs: 5_000,
      what: `token endpoint sockets closed (open: ${down.held()} + ${moved.held()}); ${at}`,
    })
    console.info(
      `[token-answers] stalled 503 ×9 + 302 ×1: ${down.peak + moved.peak} sockets at peak, ${before} open when the calls failed, 0 after ${(performance.now() - started).toFixed(0)} ms; ${at}`,
    )
  })

  it('a token answer past the cap (64 kB) is refused as invalid_token_response, and its body cancelled', async () => {
    printSeedOnFailure(SEED, FILE)
    for (const answer of [endless, declaredHuge]) {
      const endpoint = await hostile([answer])
      const error = await createTokenProvider({ url: endpoint.url })
        .getToken()
        .catch((e: unknown) => e)
      expect(isAuthError(error) && error.code === 'invalid_token_response', `${String(error)}; ${at}`).toBe(true)
      expect(isAuthError(error) && error.status, at).toBe(200)
      expect(endpoint.requests, `an answer, not an outage: no retry; ${at}`).toBe(1)
      // Without the cancel the endless body keeps its socket (and the read fills memory).
      await waitUntil(() => endpoint.held() === 0, {
        timeoutMs: 5_000,
        what: `token endpoint socket closed (open: ${endpoint.held()}); ${at}`,
      })
    }
  })
})
