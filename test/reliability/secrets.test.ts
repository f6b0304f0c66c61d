// Secrets: across a run of varied failing requests (401, 403, 404, 422, 429, 5xx, dropped
// sockets, HTML bodies, a token endpoint that is down, raw keys from a server and from a
// browser, revoked and forged tokens over the WebSocket), no key secret and no token appears in
// an emulator access-log line, an SDK log or debug line, an error message or a delivery log;
// no token ever appears in a URL (every URL the SDK requested, every URL the server received,
// every WebSocket upgrade). The webhook handler refuses a bad signature, a stale timestamp and a
// replayed delivery of a real emulator webhook.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient, createTokenProvider, isTandemError, type Logger } from '@tandem/core'
import { DEV_APP, startEmulator, type AccessLogLine, type Emulator, type EmulatorApp } from '@tandem/emulator'
import { createRealtime } from '@tandem/realtime'
import { createWebhookHandler, mintToken, signWebhook, toNodeListener } from '@tandem/server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { waitUntil, within } from '../utils/wait.js'
import { history } from '@tandem/realtime/history'
import { debugLog } from '@tandem/realtime/debug'

const FILE = 'secrets'
const SEED = seedFrom(0x5ec)
const at = replay(SEED, FILE)
const OTHER: EmulatorApp = {
  appId: 'app_other',
  keys: [{ id: 'key_other', secret: 'other_app_secret_value_0123456789' }],
}
const SECRETS = [...DEV_APP.keys, ...OTHER.keys].map((k) => k.secret)
const JWT = /eyJ[\w-]{4,}\.eyJ[\w-]{4,}\.[\w-]{8,}/

let emu: Emulator
const logLines: AccessLogLine[] = []
/** Every token that existed during the run (minted by the test or served by the token endpoint). */
const tokens = new Set<string>()
/** Every URL the SDK asked for, and every URL the server received while only the SDK talked. */
const sdkUrls: string[] = []
const serverUrls: string[] = []
let capturing = true
/** Every text that could leak: log lines, debug lines, error messages. */
const texts: { where: string; text: string }[] = []

function memoryLogger(where: string): Required<Logger> {
  const push = (message: string, data?: Record<string, unknown>) =>
    void texts.push({ where, text: `${message} ${JSON.stringify(data ?? {})}` })
  return { debug: push, info: push, warn: push, error: push }
}

/** The SDK's fetch, watched: URLs recorded, tokens served by the token endpoint remembered. */
const watchedFetch: typeof fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input)
  sdkUrls.push(url)
  const res = await fetch(input, init)
  if (url.includes('/dev/token') && res.ok) {
    const body = (await res
      .clone()
      .json()
      .catch(() => ({}))) as { token?: string }
    if (body.token) tokens.add(body.token)
  }
  return res
}

class WatchedWebSocket extends WebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols)
    sdkUrls.push(String(url))
  }
}

function recordError(where: string, e: unknown) {
  const parts = [String(e), (e as Error)?.stack ?? '']
  if (typeof e === 'object' && e !== null) {
    const { cause, ...rest } = e as Record<string, unknown>
    parts.push(JSON.stringify(rest), String(cause), JSON.stringify((e as { details?: unknown }).details ?? null))
  }
  texts.push({ where, text: parts.join(' | ') })
}

async function mint(o: { appId?: string; scope?: string[]; now?: number } = {}): Promise<string> {
  const app = o.appId === OTHER.appId ? OTHER : DEV_APP
  const key = app.keys[0]!
  const { token } = await mintToken({
    appId: app.appId,
    keyId: key.id,
    secret: key.secret,
    subject: 'leaky',
    scope: o.scope ?? ['maps', 'support', 'realtime'],
    ...(o.now ? { now: o.now } : {}),
  })
  tokens.add(token)
  return token
}

beforeAll(async () => {
  emu = await startEmulator({ seed: SEED, apps: [DEV_APP, OTHER], onLog: (line) => void logLines.push(line) })
  emu.server.prependListener('request', (req) => void (capturing && serverUrls.push(req.url ?? '')))
  emu.server.prependListener('upgrade', (req) => void serverUrls.push(req.url ?? ''))
})
afterAll(async () => {
  await emu?.close()
})

describe('secrets', () => {
  it('a run of varied failures: no secret or token in any log line or error, no token in any URL', async () => {
    printSeedOnFailure(SEED, FILE)
    const consoleError = vi
      .spyOn(console, 'error')
      .mockImplementation(
        (...args: unknown[]) => void texts.push({ where: 'console.error', text: args.map(String).join(' ') }),
      )
    const consoleWarn = vi
      .spyOn(console, 'warn')
      .mockImplementation(
        (...args: unknown[]) => void texts.push({ where: 'console.warn', text: args.map(String).join(' ') }),
      )
    try {
      const client = createClient({
        baseUrl: emu.url,
        auth: { url: `${emu.url}/dev/token` },
        fetch: watchedFetch,
        logger: memoryLogger('client log'),
        logLevel: 'debug',
        retry: { limit: 1, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 50 },
      })
      const attempt = async (where: string, p: () => Promise<unknown>) => {
        try {
          await within(p(), 10_000, `${where}; ${at}`)
        } catch (e) {
          if (!isTandemError(e)) throw e
          recordError(where, e)
        }
      }
      await client.support.resources.list({ limit: 2 }) // a token, and a success to compare with
      await attempt('404', () => client.support.conversations.get('cv_does_not_exist'))
      await attempt('validation', () => client.maps.geocode({ query: '' }))
      await attempt('422', () =>
        client.support.conversations.create({
          mailboxId: 'mb_nope',
          subject: 's',
          customer: { email: 'a@b.co' },
          text: 't',
        }),
      )
      emu.faults.rateLimitNext(2, { service: 'maps', retryAfterSeconds: 0 })
      await attempt('429', () => client.maps.resources.list())
      emu.faults.failNext(2, { service: 'support', status: 503 })
      await attempt('503', () => client.support.resources.list())
      emu.faults.dropNext(2, { service: 'maps' })
      await attempt('dropped', () => client.maps.resources.list())
      emu.faults.respondNext(1, {
        service: 'support',
        status: 502,
        body: '<html>Bad gateway</html>',
        contentType: 'text/html',
      })
      await attempt('html', () => client.support.resources.list())
      emu.faults.respondNext(1, { service: 'support', status: 200, body: '{"data":[', contentType: 'application/json' })
      await attempt('truncated', () => client.support.resources.list())
      // 401: a forged token; 403: an under-scoped one; an expired one; another app's.
      for (const [where, token] of [
        ['forged', (await mint()).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))],
        ['403', await mint({ scope: ['maps'] })],
        ['expired', await mint({ now: Date.now() - 700_000 })],
        ['other app', await mint({ appId: OTHER.appId })],
      ] as const) {
        tokens.add(token)
        const c = createClient({
          baseUrl: emu.url,
          auth: { fetchToken: async () => ({ token, expiresIn: 600 }) },
          fetch: watchedFetch,
          logger: memoryLogger(`client log (${where})`),
          logLevel: 'debug',
        })
        await attempt(where, () => c.support.resources.list())
      }
      // The token endpoint down, then refusing.
      const down = createClient({
        baseUrl: emu.url,
        auth: createTokenProvider({ url: `${emu.url}/dev/token` }, { fetch: watchedFetch, random: () => 0 }),
        fetch: watchedFetch,
        logger: memoryLogger('client log (down)'),
        logLevel: 'debug',
      })
      emu.faults.tokenEndpoint({ status: 503, count: 3 })
      await attempt('token endpoint 503', () => down.maps.resources.list())
      emu.faults.tokenEndpoint({ status: 401, count: 1 })
      const refused = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, fetch: watchedFetch })
      await attempt('token endpoint 401', () => refused.maps.resources.list())

      // Realtime: debug lines, a forbidden publish, a revoked token, a forged one.
      const debug = memoryLogger('realtime debug')
      const rt = createRealtime(
        { client },
        { WebSocket: WatchedWebSocket, debug: debugLog(debug), backoff: { baseMs: 5, capMs: 20 } },
      )
      rt.on('error', (e) => recordError('realtime error event', e))
      const ch = rt.channel('secret:room')
      ch.subscribe(() => {})
      await waitUntil(() => ch.state === 'subscribed', { what: `subscribed; ${at}` })
      await ch.publish('hello', { text: 'hi' })
      emu.realtime.revoke('dev-user')
      await waitUntil(
        () => rt.state === 'connected' && ch.state === 'subscribed' && (emu.realtime.stats.connections.total ?? 0) >= 2,
        { what: `reconnected after revoke; ${at}` },
      )
      await attempt('realtime history bad', () => history(ch, { limit: 5000 }))
      rt.close()
      const forged = (await mint()).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))
      tokens.add(forged)
      const rt2 = createRealtime(
        { auth: { fetchToken: async () => ({ token: forged, expiresIn: 600 }) }, url: `${emu.url}/realtime` },
        { WebSocket: WatchedWebSocket, debug: debugLog(debug), backoff: { baseMs: 5, capMs: 20 } },
      )
      rt2.on('error', (e) => recordError('realtime error event (forged)', e))
      rt2.connect()
      await waitUntil(() => emu.log.length > 0 && emu.realtime.stats.connections.total >= 4, {
        what: `forged attempts; ${at}`,
      })
      rt2.close()

      // Raw keys: a server may send one in its Authorization header, a browser (Origin) may not; none
      // is logged, and a key put in a URL anyway is refused (401 key_in_url) without being echoed.
      const key = DEV_APP.keys[0]!
      const raw = (secret: string, headers: Record<string, string> = {}) =>
        fetch(`${emu.url}/maps/v1/resources`, { headers: { authorization: `Bearer ${key.id}:${secret}`, ...headers } })
      expect((await raw(key.secret)).status, at).toBe(200)
      const browser = await raw(key.secret, { origin: 'https://app.example' })
      expect(browser.status, at).toBe(403)
      texts.push({ where: 'raw key refusal body', text: await browser.text() })
      const wrong = await raw('not-the-secret')
      expect(wrong.status, at).toBe(401)
      texts.push({ where: 'raw key 401 body', text: await wrong.text() })
      capturing = false // the one URL below holds a key on purpose
      const inUrl = await fetch(`${emu.url}/maps/v1/resources?key=${key.id}:${key.secret}`)
      expect(inUrl.status, at).toBe(401)
      texts.push({ where: 'raw key in a URL 401 body', text: await inUrl.text() })
      capturing = true
      await waitUntil(() => logLines.length >= emu.log.length, { what: `log lines; ${at}` })

      // The checks.
      expect(tokens.size, `tokens seen; ${at}`).toBeGreaterThanOrEqual(6)
      const all = [
        ...logLines.map((l) => ({ where: 'access log (onLog)', text: JSON.stringify(l) })),
        ...emu.log.map((l) => ({ where: 'access log (emu.log)', text: JSON.stringify(l) })),
        ...emu.webhooks.deliveries.map((d) => ({ where: 'webhook deliveries', text: JSON.stringify(d) })),
        ...texts,
      ]
      const leaks: string[] = []
      for (const { where, text } of all) {
        for (const s of SECRETS) if (text.includes(s)) leaks.push(`${where}: a key secret in ${text.slice(0, 200)}`)
        for (const t of tokens)
          if (text.includes(t) || text.includes(t.split('.')[2]!))
            leaks.push(`${where}: a token in ${text.slice(0, 200)}`)
        if (JWT.test(text)) leaks.push(`${where}: something JWT-shaped in ${text.slice(0, 200)}`)
      }
      expect(leaks, at).toEqual([])
      const inUrls = [...sdkUrls, ...serverUrls].filter(
        (u) =>
          [...tokens].some((t) => u.includes(t)) ||
          JWT.test(u) ||
          /[?&](token|access_token|key|secret)=/i.test(u) ||
          SECRETS.some((s) => u.includes(s)),
      )
      expect(inUrls, `tokens or keys in URLs; ${at}`).toEqual([])
      expect(
        serverUrls.filter((u) => u.startsWith('/realtime/v1/ws')).length,
        `upgrades seen; ${at}`,
      ).toBeGreaterThanOrEqual(3)
      console.info(
        `[secrets] ${all.length} log lines, debug lines and error texts, ${sdkUrls.length + serverUrls.length} URLs and ${tokens.size} tokens checked: no leak; ${at}`,
      )
    } finally {
      consoleError.mockRestore()
      consoleWarn.mockRestore()
    }
  })

  it('the webhook handler refuses a bad signature, a stale timestamp and a replayed delivery of a real emulator webhook', async () => {
    printSeedOnFailure(SEED, FILE)
    const received: { body: string; signature: string }[] = []
    let secret: string
    let handler: ((request: Request) => Promise<Response>) | undefined
    const events: string[] = []
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        received.push({ body, signature: String(req.headers['tandem-signature'] ?? '') })
        const replay = {
          method: req.method,
          url: req.url,
          headers: req.headers,
          async *[Symbol.asyncIterator]() {
            yield Buffer.from(body)
          },
        }
        void toNodeListener(handler!)(replay as never, res)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
    try {
      const endpoint = emu.webhooks.register({ url, events: ['conversation.*'] })
      secret = endpoint.secret
      handler = createWebhookHandler({ secret, on: { 'conversation.created': (e) => void events.push(e.id) } })
      const payload = emu.webhooks.send('conversation.created', { id: 'cv_1' })
      const delivered = await emu.webhooks.waitFor((d) => d.eventId === payload.id, { timeoutMs: 5_000 })
      expect(delivered.status, `the genuine delivery is accepted; ${at}`).toBe(200)
      expect(events, at).toEqual([payload.id])
      const genuine = received[0]!
      const post = (body: string, signature: string) =>
        handler!(
          new Request(url, {
            method: 'POST',
            body,
            headers: { 'tandem-signature': signature, 'content-type': 'application/json' },
          }),
        )

      // Replayed as captured: refused, not handled twice.
      const replayed = await post(genuine.body, genuine.signature)
      expect(
        [replayed.status, ((await replayed.json()) as { error: { code: string } }).error.code],
        `replay; ${at}`,
      ).toEqual([409, 'duplicate_delivery'])
      // The body changed by one byte: the signature no longer matches.
      const tampered = await post(genuine.body.replace('cv_1', 'cv_2'), genuine.signature)
      expect(
        [tampered.status, ((await tampered.json()) as { error: { code: string } }).error.code],
        `tampered; ${at}`,
      ).toEqual([401, 'invalid_signature'])
      // Signed by someone else.
      const foreign = await post(genuine.body, await signWebhook(genuine.body, 'whsec_not_the_secret'))
      expect(foreign.status, `foreign signature; ${at}`).toBe(401)
      // Correctly signed, but 10 minutes old (a captured request replayed later, under a new id).
      const stale = genuine.body.replace(payload.id, `${payload.id}_again`)
      const old = await post(stale, await signWebhook(stale, secret, Math.floor(Date.now() / 1000) - 600))
      expect([old.status, ((await old.json()) as { error: { code: string } }).error.code], `stale; ${at}`).toEqual([
        401,
        'timestamp_out_of_range',
      ])
      expect(events, `only the genuine delivery was handled; ${at}`).toEqual([payload.id])
      // None of the refusals, nor the delivery log, shows the secret or a signature.
      const log = JSON.stringify(emu.webhooks.deliveries)
      expect(log.includes(secret) || log.includes(genuine.signature.split('v1=')[1]!), at).toBe(false)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  // The built playground bundle (no key secret, no token, no dev control) is checked once, by
  // playground/e2e/playground.test.ts ("the built playground"): a second build here raced it into
  // the same playground/dist, and under Vitest's NODE_ENV=test made a development build.
})
