// Rate limits under attack: a client whose bucket is five times the service's plan, a forced
// storm of 429s, and a realtime connection closed with 4290. Counted at the emulator (arrival
// times per request) and at the client (every send, every 429 received): the client learns the
// plan and stays within it, waits out every Retry-After, and every request eventually succeeds.
import { performance } from 'node:perf_hooks'
import { createClient, type RateLimitWaitEvent, type TandemClient } from '@tandem/core'
import { startEmulator, type Emulator, type EmulatorOptions } from '@tandem/emulator'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { realtimeClient, untilState } from '../utils/harness.js'
import { mulberry32, printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { within } from '../utils/wait.js'
import { history } from '@tandem/realtime/history'

const FILE = 'rate-limits'
const SEED = seedFrom(0x429)
const at = replay(SEED, FILE)

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

interface Arrival {
  id: string
  service: string
  arrived: number
  /** When the response finished, and its status. */
  done?: number
  status?: number
}

/** An emulator that timestamps every request's arrival and response (performance.now). */
async function counted(options: EmulatorOptions) {
  const emu: Emulator = await startEmulator({ seed: SEED, ...options })
  cleanups.push(() => emu.close())
  const arrivals: Arrival[] = []
  emu.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const service = (req.url ?? '').split('/')[1] ?? ''
    const a: Arrival = { id: String(req.headers['x-test-id'] ?? ''), service, arrived: performance.now() }
    arrivals.push(a)
    res.once('finish', () => {
      a.done = performance.now()
      a.status = res.statusCode
    })
  })
  return { emu, arrivals }
}

/** The client's side: when each attempt was sent and each response received. */
function clientLog(client: TandemClient) {
  const received: { at: number; status?: number; attempt: number }[] = []
  client.on('request', (e) => void received.push({ at: performance.now(), status: e.status, attempt: e.attempt }))
  return received
}

/** A token bucket of capacity C refilled at C / W admits at most C + t·C/W requests in any span t (plus slack). */
function expectWithinPlan(times: number[], limit: number, windowMs: number, slack: number, what: string) {
  const sorted = [...times].sort((a, b) => a - b)
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i; j < sorted.length; j++) {
      const span = sorted[j]! - sorted[i]!
      const allowed = limit + (span * limit) / windowMs + slack
      if (j - i + 1 > allowed) {
        throw new Error(
          `${what}: ${j - i + 1} requests arrived within ${span.toFixed(1)} ms, the plan allows ${allowed.toFixed(1)}; ${at}`,
        )
      }
    }
  }
}

describe('rate limits', () => {
  it('a client whose bucket is 5× the plan: one wave of 429s, then it follows the plan; all 30 requests succeed', async () => {
    printSeedOnFailure(SEED, FILE)
    const LIMIT = 10
    const WINDOW = 1_000
    const N = 30
    const { emu, arrivals } = await counted({ plans: { support: { limit: LIMIT, windowMs: WINDOW } } })
    const client = createClient({
      baseUrl: emu.url,
      auth: { fetchToken: async () => ({ token: await emu.mintToken(), expiresIn: 600 }) },
      services: { support: { rateLimit: { limit: LIMIT * 5, intervalMs: WINDOW } } },
      retry: { limit: 10 },
    })
    const results = await within(
      Promise.allSettled(
        Array.from({ length: N }, (_, i) =>
          client.request({
            service: 'support',
            method: 'GET',
            path: '/v1/resources',
            query: { limit: 1 },
            headers: { 'x-test-id': `r${i}` },
          }),
        ),
      ),
      30_000,
      `${N} requests settle; ${at}`,
    )
    const failed = results.filter((r) => r.status === 'rejected')
    expect(
      failed.map((r) => String((r as PromiseRejectedResult).reason)),
      `every request eventually succeeds; ${at}`,
    ).toEqual([])

    const support = arrivals.filter((a) => a.service === 'support')
    const limited = support.filter((a) => a.status === 429)
    // The first wave (every request's first attempt) goes out before any answer tells the plan.
    // Every retry comes after the client heard it: not one of them is refused.
    const retries = support.filter((a, i) => support.findIndex((b) => b.id === a.id) !== i)
    expect(
      retries.filter((a) => a.status === 429).map((a) => a.id),
      `retries refused with 429; ${at}`,
    ).toEqual([])
    // It went out as one wave: every first attempt arrived before any retry. The plan refills while
    // the wave arrives (a token per 100 ms: on a busy machine the 30 arrivals span several), so the
    // emulator's bucket admits LIMIT plus what refilled over that span; the rest of the wave is refused.
    const firsts = support.filter((a, i) => support.findIndex((b) => b.id === a.id) === i)
    expect(Math.max(...firsts.map((a) => a.arrived)), `the first wave before any retry; ${at}`).toBeLessThan(
      Math.min(...retries.map((a) => a.arrived)),
    )
    const span = Math.max(...firsts.map((a) => a.arrived)) - Math.min(...firsts.map((a) => a.arrived))
    const admitted = Math.floor(LIMIT + (span * LIMIT) / WINDOW) + 1
    // At least one refused, however slow the machine: the wave went out before the client knew the plan.
    expect(
      limited.length,
      `the first wave: ${N} at once over ${span.toFixed(0)} ms against a plan of ${LIMIT}; ${at}`,
    ).toBeGreaterThanOrEqual(Math.max(1, N - admitted))
    expect(emu.stats.rateLimited, at).toBe(limited.length)
    // The retries respect the plan's token bucket, counted at the emulator.
    expectWithinPlan(
      retries.map((a) => a.arrived),
      LIMIT,
      WINDOW,
      1,
      'retries',
    )
    // Each refused request came back only after its Retry-After (1 s), measured at the emulator.
    for (const a of limited) {
      const next = support.find((b) => b.id === a.id && b.arrived > a.arrived)
      expect(next, `request ${a.id} was retried; ${at}`).toBeDefined()
      expect(next!.arrived - a.done!, `request ${a.id}: Retry-After 1 s; ${at}`).toBeGreaterThanOrEqual(1_000 - 5)
    }
    console.info(
      `[rate-limits] 5× bucket: ${support.length} arrivals, ${limited.length} 429s (first wave only), ${N}/${N} succeeded; ${at}`,
    )
  })

  it('a forced storm of 22 × 429 (Retry-After: 1) on 20 concurrent reads: gaps of ≥ 1 s, nothing sent meanwhile, all succeed', async () => {
    printSeedOnFailure(SEED, FILE)
    // A plan (and client bucket) of 100/s, so the storm, not the bucket, sets the pace.
    const { emu, arrivals } = await counted({ plans: { maps: { limit: 6_000 } } })
    const sends: { at: number; id: string }[] = []
    const client = createClient({
      baseUrl: emu.url,
      auth: { fetchToken: async () => ({ token: await emu.mintToken(), expiresIn: 600 }) },
      retry: { limit: 5 },
      services: { maps: { rateLimit: { requestsPerMinute: 6_000 } } },
      fetch: (input, init) => {
        sends.push({ at: performance.now(), id: String(new Headers(init?.headers).get('x-test-id')) })
        return fetch(input, init)
      },
    })
    await client.auth.getToken()
    const received = clientLog(client)
    const waits: RateLimitWaitEvent[] = []
    client.on('rateLimitWait', (e) => void waits.push(e))
    emu.faults.rateLimitNext(22, { service: 'maps', retryAfterSeconds: 1 })
    const results = await within(
      Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          client.request({
            service: 'maps',
            method: 'GET',
            path: '/v1/resources',
            query: { limit: 1 },
            headers: { 'x-test-id': `m${i}` },
          }),
        ),
      ),
      20_000,
      `20 requests settle; ${at}`,
    )
    expect(
      results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
      at,
    ).toEqual([])
    const maps = arrivals.filter((a) => a.service === 'maps')
    expect(
      maps.filter((a) => a.status === 429),
      at,
    ).toHaveLength(22)
    expect(maps, `20 first attempts + 22 retries; ${at}`).toHaveLength(42)

    // After each 429 the client receives, nothing is sent on the service for Retry-After,
    // except attempts that had their slot before it (sent within 5 ms of it).
    for (const r of received.filter((x) => x.status === 429)) {
      const early = sends.filter((s) => s.at > r.at + 5 && s.at < r.at + 1_000 - 5)
      expect(
        early.map((s) => `${s.id} +${(s.at - r.at).toFixed(0)} ms`),
        `sent during a Retry-After pause; ${at}`,
      ).toEqual([])
    }
    // Per request: each retry at least 1 s after the 429 it answers.
    for (const a of maps.filter((x) => x.status === 429)) {
      const next = maps.find((b) => b.id === a.id && b.arrived > a.arrived)!
      expect(next.arrived - a.done!, `request ${a.id}; ${at}`).toBeGreaterThanOrEqual(1_000 - 5)
    }
    // The first wave's pause, then one pause per further 429 (each holds the whole service): counted as
    // the silences of a Retry-After between sends, not timed. Pauses one after another per request
    // would make 22; one pause made of several Retry-Afters would show as a longer wait announced.
    const times = sends.map((s) => s.at).sort((a, b) => a - b)
    const pauses = times.filter((t, i) => i > 0 && t - times[i - 1]! >= 1_000 - 5).length
    expect(pauses, `three Retry-After pauses, not more; ${at}`).toBeLessThanOrEqual(3)
    const afterRetryAfter = waits.filter((w) => w.reason === 'retry-after')
    expect(afterRetryAfter.length, `waits announced for a Retry-After; ${at}`).toBeGreaterThan(0)
    expect(
      afterRetryAfter.filter((w) => w.waitMs > 1_000 + 250).map((w) => w.waitMs),
      `each wait announced is one Retry-After, not several; ${at}`,
    ).toEqual([])
    console.info(`[rate-limits] forced storm: 22 × 429, 42 arrivals, every gap ≥ 1 s, ${pauses} pauses; ${at}`)
  })

  it('realtime: publishing past the bucket gets close 4290; no reconnect before its retryAfterMs; every publish stored once', async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await startEmulator({
      seed: SEED,
      realtime: { publishRate: { limit: 10, intervalMs: 1_000, burst: 5 } },
    })
    cleanups.push(() => emu.close())
    const upgrades: number[] = []
    emu.server.prependListener('upgrade', () => void upgrades.push(performance.now()))
    const closes: { at: number; code: number }[] = []
    emu.realtime.on((e) => void (e.type === 'close' && closes.push({ at: performance.now(), code: e.code })))
    // Backoff of 1–2 ms: without honouring retryAfterMs the client would be back at once.
    const rt = realtimeClient(
      emu,
      { url: emu.url, subject: 'fast' },
      { backoff: { baseMs: 1, capMs: 2 }, random: mulberry32(SEED) },
    )
    cleanups.push(() => rt.close())
    const states: { at: number; reason?: string; retryInMs?: number }[] = []
    rt.on('state', (s) => void states.push({ at: performance.now(), reason: s.reason, retryInMs: s.retryInMs }))
    rt.connect()
    await untilState(rt, 'connected')
    const ch = rt.channel('rl:1')
    const acks = await within(
      Promise.all(Array.from({ length: 26 }, (_, i) => ch.publish('k', { k: i }))),
      30_000,
      `26 publishes; ${at}`,
    )

    const closed = closes.find((c) => c.code === 4290)
    expect(closed, `the emulator closed the connection with 4290; ${at}`).toBeDefined()
    const limited = states.find((s) => s.reason === 'rate_limited')!
    expect(limited, at).toBeDefined()
    expect(limited.retryInMs, `retryAfterMs from the close reason; ${at}`).toBeGreaterThan(20)
    const next = upgrades.find((u) => u > closed!.at)!
    expect(next, at).toBeDefined()
    expect(
      next - closed!.at,
      `reconnected ${(next - closed!.at).toFixed(0)} ms after 4290, retryAfterMs ${limited.retryInMs}; ${at}`,
    ).toBeGreaterThanOrEqual(limited.retryInMs! - 1)
    await untilState(rt, 'connected')

    const page = await history(ch, { limit: 100 })
    const ks = page.messages.map((m) => (m.data as { k: number }).k).sort((a, b) => a - b)
    expect(ks, `each publish stored exactly once; ${at}`).toEqual(Array.from({ length: 26 }, (_, i) => i))
    expect(new Set(acks.map((a) => a.offset)).size, at).toBe(26)
    console.info(
      `[rate-limits] 4290: reconnected after ${(next - closed!.at).toFixed(0)} ms (retryAfterMs ${limited.retryInMs}); 26 publishes stored once; ${at}`,
    )
  })
})
