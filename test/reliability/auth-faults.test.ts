// Auth under attack: a token endpoint that is down for a while (and an app retrying in a tight
// loop), one that refuses, a token revoked mid-session, and tokens the services must refuse:
// forged, expired, for the wrong app, under-scoped, over REST and over the WebSocket.
import { performance } from 'node:perf_hooks'
import { createClient, isAuthError, isRealtimeError, type RealtimeError } from '@tandem/core'
import { DEV_APP, startEmulator, type Emulator, type EmulatorApp } from '@tandem/emulator'
import { createRealtime, type Message, type StateChange } from '@tandem/realtime'
import { mintToken } from '@tandem/server'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { realtimeClient, untilState, untilSubscribed } from '../utils/harness.js'
import { mulberry32, printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { tick, waitUntil, within } from '../utils/wait.js'

const FILE = 'auth-faults'
const SEED = seedFrom(0xa07)
const at = replay(SEED, FILE)
const OTHER: EmulatorApp = { appId: 'app_other', keys: [{ id: 'key_other', secret: 'other_app_secret_for_tests' }] }

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function emulator(): Promise<Emulator> {
  const emu = await startEmulator({ seed: SEED, apps: [DEV_APP, OTHER] })
  cleanups.push(() => emu.close())
  return emu
}

const devKey = DEV_APP.keys[0]!
const mint = (
  o: { appId?: string; keyId?: string; secret?: string; scope?: string[]; now?: number; subject?: string } = {},
) =>
  mintToken({
    appId: o.appId ?? DEV_APP.appId,
    keyId: o.keyId ?? devKey.id,
    secret: o.secret ?? devKey.secret,
    subject: o.subject ?? 'mallory',
    scope: o.scope ?? ['maps', 'support', 'realtime'],
    ...(o.now ? { now: o.now } : {}),
  }).then((r) => r.token)

/** Flips one character of the signature: a forged token. */
const forge = (token: string) => {
  const i = token.length - 3
  return token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1)
}

/** Opens a raw socket with `token` in the connect frame; resolves with the close code, or 'connected'. */
function rawConnect(emu: Emulator, token: string): Promise<number | 'connected'> {
  return within(
    new Promise((resolve) => {
      const ws = new WebSocket(`${emu.url.replace('http', 'ws')}/realtime/v1/ws`)
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connect', id: 1, token })))
      ws.on('message', (data) => {
        if (JSON.parse(String(data)).type === 'connected') {
          resolve('connected')
          ws.close()
        }
      })
      ws.on('close', (code) => resolve(code))
      ws.on('error', () => {})
    }),
    5_000,
    `raw connect; ${at}`,
  )
}

describe('auth faults', () => {
  it('token endpoint down (3 × 503) while the app retries in a tight loop: 4 token requests in all, typed errors, automatic recovery', async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await emulator()
    const client = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, retry: false })
    emu.faults.tokenEndpoint({ status: 503, count: 3 })
    const errors: unknown[] = []
    let calls = 0
    const started = performance.now()
    for (;;) {
      calls++
      try {
        await client.maps.resources.list({ limit: 1 })
        break
      } catch (e) {
        errors.push(e)
      }
      await tick() // the app's loop yields, nothing more: no backoff of its own
      if (performance.now() - started > 10_000) throw new Error(`no recovery within 10 s; ${at}`)
    }
    const took = performance.now() - started
    expect(errors.length, `the loop ran (calls=${calls}); ${at}`).toBeGreaterThan(10)
    const kinds = new Set(
      errors.map((e) => `${isAuthError(e)} ${(e as { code?: string }).code} ${(e as { status?: number }).status}`),
    )
    expect([...kinds], `every error typed: AuthError token_endpoint_unavailable 503; ${at}`).toEqual([
      'true token_endpoint_unavailable 503',
    ])
    // Three attempts (with backoff) for the first refresh, a cool-down during which every call
    // fails fast, then one successful fetch: however many calls the app made.
    expect(emu.stats.tokenRequests, `token requests for ${calls} calls; ${at}`).toBe(4)
    console.info(
      `[auth-faults] endpoint down: ${calls} calls in ${took.toFixed(0)} ms, ${emu.stats.tokenRequests} token requests; ${at}`,
    )
  })

  it('token endpoint down for realtime: reconnecting with token_unavailable, typed errors, bounded attempts, then connected', async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await emulator()
    const client = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    const rt = createRealtime({ client }, { WebSocket, backoff: { baseMs: 20, capMs: 200 }, random: mulberry32(SEED) })
    cleanups.push(() => rt.close())
    const states: StateChange[] = []
    const errors: RealtimeError[] = []
    rt.on('state', (s) => void states.push(s))
    rt.on('error', (e) => void errors.push(e))
    emu.faults.tokenEndpoint({ status: 503, count: 6 })
    const got: Message[] = []
    rt.channel('auth:down').subscribe((m) => void got.push(m))
    await untilState(rt, 'connected', 15_000)
    expect(
      states.some((s) => s.reason === 'token_unavailable'),
      at,
    ).toBe(true)
    expect(errors.length, at).toBeGreaterThan(0)
    for (const e of errors) {
      expect(isRealtimeError(e), `typed: ${String(e)}; ${at}`).toBe(true)
      expect(e.code, at).toBe('token_endpoint_unavailable')
    }
    expect(emu.stats.tokenRequests, `6 refused + 1 served; ${at}`).toBe(7)
    await untilSubscribed([rt.channel('auth:down')])
    await client.realtime.publish('auth:down', 'n', { ok: true })
    await waitUntil(() => got.length === 1, { what: `a message after recovery; ${at}` })
  })

  it('a token endpoint that refuses (401) is final: AuthError token_refused over REST, state failed for realtime, no retries', async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await emulator()
    const client = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    emu.faults.tokenEndpoint({ status: 401, count: 1 })
    const e = await client.support.resources.list().catch((x: unknown) => x)
    expect(isAuthError(e) && e.code === 'token_refused' && e.status === 401, `${String(e)}; ${at}`).toBe(true)
    expect(emu.stats.tokenRequests, at).toBe(1)

    const client2 = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    const rt = createRealtime({ client: client2 }, { WebSocket, backoff: { baseMs: 5, capMs: 10 } })
    cleanups.push(() => rt.close())
    emu.faults.tokenEndpoint({ status: 403, count: 1 })
    rt.connect()
    await untilState(rt, 'failed')
    const requests = emu.stats.tokenRequests
    await new Promise((resolve) => setTimeout(resolve, 200)) // would-be retries (5–10 ms backoff) get time to show up
    expect(emu.stats.tokenRequests, `no retry after a refusal; ${at}`).toBe(requests)
    expect(emu.realtime.stats.connections.total, at).toBe(0)
  })

  it('a token revoked mid-session: close 4102, a fresh token, reconnect and resume without loss', async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await emulator()
    let tokens = 0
    const client = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    client.auth.on('token', () => void tokens++)
    const rt = createRealtime({ client }, { WebSocket, backoff: { baseMs: 20, capMs: 100 }, random: mulberry32(SEED) })
    cleanups.push(() => rt.close())
    const states: StateChange[] = []
    rt.on('state', (s) => void states.push(s))
    const got: Message[] = []
    const gaps: unknown[] = []
    const ch = rt.channel('auth:revoke')
    ch.subscribe((m) => void got.push(m))
    ch.on('discontinuity', (d) => void gaps.push(d))
    await untilSubscribed([ch])
    const pub = realtimeClient(emu, { url: emu.url, subject: 'publisher' })
    cleanups.push(() => pub.close())
    for (let i = 1; i <= 5; i++) await pub.channel('auth:revoke').publish('n', i)
    await waitUntil(() => got.length === 5, { what: `5 messages; ${at}` })
    const closes: number[] = []
    emu.realtime.on((e) => void (e.type === 'close' && closes.push(e.code)))

    expect(emu.realtime.revoke('dev-user'), at).toBe(1)
    for (let i = 6; i <= 10; i++) await pub.channel('auth:revoke').publish('n', i)
    await waitUntil(() => states.some((s) => s.reason === 'token_revoked'), { what: `token_revoked; ${at}` })
    await untilState(rt, 'connected')
    await untilSubscribed([ch])
    await waitUntil(() => got.length >= 10, { what: `10 messages; ${at}` })
    expect(closes, at).toContain(4102)
    expect(tokens, `a fresh token after the revocation; ${at}`).toBe(2)
    expect(
      got.map((m) => m.data),
      at,
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(gaps, at).toEqual([])
  })

  it('forged, expired, wrong-app, unknown-app and under-scoped tokens: REST 401/403 with the right code, WS 4101/4100, forbidden per channel', async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await emulator()
    const valid = await mint()
    const cases = {
      forged: { token: forge(valid), status: 401, code: 'invalid_signature', ws: 4101 },
      expired: { token: await mint({ now: Date.now() - 700_000 }), status: 401, code: 'token_expired', ws: 4100 },
      wrongApp: { token: await mint({ appId: OTHER.appId }), status: 401, code: 'unknown_key', ws: 4101 },
      unknownApp: { token: await mint({ appId: 'app_ghost' }), status: 401, code: 'unknown_app', ws: 4101 },
      underScoped: {
        token: await mint({ scope: ['maps', 'realtime:subscribe:ok:*'] }),
        status: 403,
        code: 'insufficient_scope',
        ws: 'connected' as const,
      },
    }
    for (const [name, c] of Object.entries(cases)) {
      // The raw service.
      const res = await fetch(`${emu.url}/support/v1/resources`, { headers: { authorization: `Bearer ${c.token}` } })
      const body = (await res.json()) as { error: { code: string } }
      expect([res.status, body.error.code], `${name} over REST; ${at}`).toEqual([c.status, c.code])
      expect(await rawConnect(emu, c.token), `${name} over the WebSocket; ${at}`).toBe(c.ws)

      // Through the SDK: typed errors, a 401 replayed once with a fresh token, a 403 never.
      let fetched = 0
      const client = createClient({
        baseUrl: emu.url,
        auth: { fetchToken: async () => (fetched++, { token: c.token, expiresIn: 600 }) },
      })
      const before = emu.stats.byService.support
      const e = await client.support.resources.list().catch((x: unknown) => x)
      expect(isAuthError(e), `${name}: ${String(e)}; ${at}`).toBe(true)
      expect([(e as { status: number }).status, (e as { code: string }).code], `${name} via the SDK; ${at}`).toEqual([
        c.status,
        c.code,
      ])
      expect(emu.stats.byService.support - before, `${name}: requests sent; ${at}`).toBe(c.status === 401 ? 2 : 1)
      expect(fetched, `${name}: tokens fetched; ${at}`).toBe(c.status === 401 ? 2 : 1)
    }

    // Under-scoped over the socket: the channel it may not read fails alone, a publish is refused.
    const rt = createRealtime(
      {
        auth: { fetchToken: async () => ({ token: cases.underScoped.token, expiresIn: 600 }) },
        url: `${emu.url}/realtime`,
      },
      { WebSocket },
    )
    cleanups.push(() => rt.close())
    const denied = rt.channel('secret:1')
    const allowed = rt.channel('ok:1')
    const deniedErrors: RealtimeError[] = []
    denied.on('error', (e) => void deniedErrors.push(e))
    denied.subscribe(() => {})
    allowed.subscribe(() => {})
    await waitUntil(() => denied.state === 'failed' && allowed.state === 'subscribed', {
      what: `per-channel outcome (${denied.state}, ${allowed.state}); ${at}`,
    })
    expect(
      deniedErrors.map((e) => e.code),
      at,
    ).toEqual(['forbidden'])
    const pe = await allowed.publish('x', 1).catch((x: unknown) => x)
    expect(isRealtimeError(pe) && pe.code === 'forbidden', `${String(pe)}; ${at}`).toBe(true)
    expect(rt.state, at).toBe('connected')
  })

  it('a token source that keeps handing out expired tokens: 4100 at the handshake does not make the client reconnect in a tight loop', async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await emulator()
    let fetched = 0
    const expired = await mint({ now: Date.now() - 700_000 })
    // The backend's clock is wrong: every token it mints has expired already.
    const rt = createRealtime(
      { auth: { fetchToken: async () => (fetched++, { token: expired, expiresIn: 600 }) }, url: `${emu.url}/realtime` },
      {
        WebSocket,
        backoff: { baseMs: 50, capMs: 400 },
        random: mulberry32(SEED),
      },
    )
    cleanups.push(() => rt.close())
    const reasons: (string | undefined)[] = []
    rt.on('state', (s) => void reasons.push(s.reason))
    rt.connect()
    await waitUntil(() => emu.realtime.stats.connections.total >= 1, { what: `a first attempt; ${at}` })
    const start = performance.now()
    await new Promise((resolve) => setTimeout(resolve, 1_500)) // the window in which attempts are counted
    const attempts = emu.realtime.stats.connections.total
    expect(reasons, at).toContain('token_expired')
    // With backoff (50 ms base, 400 ms cap) that is a handful; a tight loop makes hundreds.
    expect(
      attempts,
      `${attempts} connections in ${(performance.now() - start).toFixed(0)} ms; ${at}`,
    ).toBeLessThanOrEqual(20)
    expect(fetched, `${fetched} token fetches; ${at}`).toBeLessThanOrEqual(21)
  })
})
