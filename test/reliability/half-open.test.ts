// deadline-test: each test is a timeout that must fire in time (watchdog, open, handshake); margins scale with the load factor.
// Half-open links: the proxy stops passing bytes but closes nothing, so no close event ever
// comes. The client must notice on its own (heartbeat watchdog: heartbeatMs + grace without a
// frame; the open and handshake timeouts before that), reconnect once the link heals, and resume
// without losing or duplicating a message.
import { startEmulator, type Emulator } from '@tandem/emulator'
import type { Discontinuity, Message, StateChange } from '@tandem/realtime'
import { DEFAULTS } from '@tandem/realtime'
import { describe, expect, it, type TestContext } from 'vitest'
import { startFaultProxy, type FaultProxy } from '../utils/fault-proxy.js'
import { realtimeClient, untilState, untilSubscribed } from '../utils/harness.js'
import { mulberry32, replay, seedFrom } from '../utils/seed.js'
import { slack, waitUntil } from '../utils/wait.js'

const FILE = 'half-open'
const SEED = seedFrom(0x4a1f)
const at = replay(SEED, FILE)
const HEARTBEAT_MS = 300
const GRACE_MS = Math.min(DEFAULTS.maxGraceMs, HEARTBEAT_MS)
/** The watchdog's tick: max(20, min(1000, grace / 4)) in watchdog.ts. */
const TICK_MS = Math.max(20, Math.min(1000, GRACE_MS / 4))

/** Per test (two of them run concurrently): resources are closed when their own test ends. */
async function stack(ctx: TestContext) {
  ctx.onTestFailed(() => console.error(`\n[reliability] ${FILE} failed with ${at}\n`))
  const cleanups: (() => unknown)[] = []
  ctx.onTestFinished(async () => {
    for (const c of cleanups.splice(0).reverse()) await c()
  })
  const emu: Emulator = await startEmulator({ seed: SEED, realtime: { heartbeatMs: HEARTBEAT_MS } })
  const proxy: FaultProxy = await startFaultProxy({ target: emu.url, seed: SEED })
  cleanups.push(
    () => emu.close(),
    () => proxy.close(),
  )
  const sub = realtimeClient(
    emu,
    { url: proxy.url, subject: 'sub' },
    { backoff: { baseMs: 20, capMs: 100 }, random: mulberry32(SEED) },
  )
  const pub = realtimeClient(emu, { url: emu.url, subject: 'pub' })
  cleanups.push(
    () => sub.close(),
    () => pub.close(),
  )
  const states: (StateChange & { at: number })[] = []
  sub.on('state', (s) => void states.push({ ...s, at: Date.now() }))
  const got: Message[] = []
  const gaps: Discontinuity[] = []
  const ch = sub.channel('ho:1')
  ch.subscribe((m) => void got.push(m))
  ch.on('discontinuity', (d) => void gaps.push(d))
  await untilSubscribed([ch])
  let n = 0
  const publish = (count: number) =>
    Promise.all(Array.from({ length: count }, () => pub.channel('ho:1').publish('n', { n: ++n })))
  return { emu, proxy, sub, pub, states, got, gaps, publish, total: () => n }
}

/** Exactly 1..total, in order, once each. */
function expectAll(got: Message[], total: number) {
  expect(
    got.map((m) => m.offset),
    `every message once, in order; ${at}`,
  ).toEqual(Array.from({ length: total }, (_, i) => i + 1))
  expect(
    got.map((m) => (m.data as { n: number }).n),
    at,
  ).toEqual(Array.from({ length: total }, (_, i) => i + 1))
}

describe('half-open links', () => {
  it('a blackholed link is noticed within heartbeatMs + grace, the client reconnects once healed and resumes with no loss', async (ctx) => {
    const s = await stack(ctx)
    await s.publish(10)
    await waitUntil(() => s.got.length === 10, { what: `first 10 messages; ${at}` })
    const conn = s.proxy.connections.find((c) => c.isWebSocket)!
    // Let a heartbeat through first, so the last frame the client saw is a known one.
    await s.emu.realtime.waitFor((e) => e?.type === 'out' && e.frame.type === 'heartbeat')

    // The link dies silently; new connections are refused until it heals.
    s.proxy.mode = 'refuse'
    s.proxy.blackholeAll()
    const lastFrame = conn.lastData.down
    const from = s.states.length
    const outage = s.publish(25) // published while the subscriber cannot hear: must come with the resume
    await waitUntil(() => s.states.slice(from).some((x) => x.reason === 'heartbeat_timeout'), {
      timeoutMs: HEARTBEAT_MS + GRACE_MS + slack(2_000),
      what: `heartbeat_timeout; ${at}`,
    })
    const noticed = s.states.slice(from).find((x) => x.reason === 'heartbeat_timeout')!
    const silentFor = noticed.at - lastFrame
    expect(silentFor, `noticed too early (${silentFor} ms of silence); ${at}`).toBeGreaterThanOrEqual(
      HEARTBEAT_MS + GRACE_MS - 2,
    )
    expect(silentFor, `noticed too late (${silentFor} ms of silence); ${at}`).toBeLessThanOrEqual(
      HEARTBEAT_MS + GRACE_MS + TICK_MS + slack(500),
    )
    expect(noticed.current, at).toBe('reconnecting')
    await outage

    // While the link is down, attempts are refused and retried with backoff (not in a tight loop).
    await waitUntil(() => s.proxy.stats.refused >= 3, { timeoutMs: 5_000, what: `refused reconnect attempts; ${at}` })
    const refusedAt = Date.now()
    const refused = s.proxy.stats.refused
    await waitUntil(() => Date.now() - refusedAt >= 300, { timeoutMs: 1_000 })
    expect(s.proxy.stats.refused - refused, `attempts in 300 ms with a 20–100 ms backoff; ${at}`).toBeLessThanOrEqual(
      300 / 10,
    )

    s.proxy.heal()
    await untilState(s.sub, 'connected')
    await untilSubscribed([s.sub.channel('ho:1')])
    await s.publish(5)
    await waitUntil(() => s.got.length >= s.total(), {
      what: `all ${s.total()} messages after the resume (have ${s.got.length}); ${at}`,
    })
    expectAll(s.got, s.total())
    expect(s.gaps, at).toEqual([])
    // The emulator holds exactly one socket for the subscriber again (the blackholed one was reset on heal).
    await waitUntil(() => s.emu.realtime.stats.connections.open === 2, {
      what: `2 open sockets at the emulator (have ${s.emu.realtime.stats.connections.open}); ${at}`,
    })
  })

  // Each costs the client's 10 s timeout, so the two run side by side.
  it.concurrent(
    'a link that goes half-open during the WebSocket open is dropped after the open timeout, then recovers',
    async (ctx) => {
      const s = await stack(ctx)
      await s.publish(3)
      await waitUntil(() => s.got.length === 3, { what: `first messages; ${at}` })
      s.proxy.mode = 'blackhole' // new connections: accepted, then nothing
      s.proxy.killAll()
      await waitUntil(() => s.proxy.history.some((c) => c.blackholed), { what: `a blackholed attempt; ${at}` })
      const hole = s.proxy.history.find((c) => c.blackholed)!
      await s.publish(4)
      await hole.done // the client gives up on it
      const waited = Date.now() - hole.openedAt
      expect(waited, `open timeout; ${at}`).toBeGreaterThanOrEqual(DEFAULTS.openTimeoutMs - 20)
      expect(waited, `open timeout; ${at}`).toBeLessThanOrEqual(DEFAULTS.openTimeoutMs + slack(1_500))
      s.proxy.heal()
      await untilState(s.sub, 'connected')
      await waitUntil(() => s.got.length >= s.total(), { what: `all messages; ${at}` })
      expectAll(s.got, s.total())
      expect(s.gaps, at).toEqual([])
    },
  )

  it.concurrent(
    'a link that goes half-open after the upgrade (no `connected`) is dropped after the handshake timeout, then recovers',
    async (ctx) => {
      const s = await stack(ctx)
      await s.publish(3)
      await waitUntil(() => s.got.length === 3, { what: `first messages; ${at}` })
      // The next connection: the upgrade passes, the `connect` frame and everything after vanish.
      let hole: import('../utils/fault-proxy.js').ProxyConnection | undefined
      const off = s.proxy.onConnection((c) => {
        off()
        hole = c
        c.onChunk('up', (_chunk, index) => void (index === 1 && c.blackhole()))
      })
      s.proxy.killAll()
      await waitUntil(() => hole?.blackholed === true, { what: `the upgrade, then the blackhole; ${at}` })
      const from = s.states.length
      const since = Date.now()
      await s.publish(4)
      await waitUntil(() => s.states.slice(from).some((x) => x.reason === 'handshake_timeout'), {
        timeoutMs: DEFAULTS.handshakeTimeoutMs + slack(3_000),
        what: `handshake_timeout; ${at}`,
      })
      const waited = s.states.slice(from).find((x) => x.reason === 'handshake_timeout')!.at - since
      expect(waited, `handshake timeout; ${at}`).toBeLessThanOrEqual(DEFAULTS.handshakeTimeoutMs + slack(1_500))
      expect(waited, `handshake timeout; ${at}`).toBeGreaterThanOrEqual(DEFAULTS.handshakeTimeoutMs - 100)
      await untilState(s.sub, 'connected')
      await waitUntil(() => s.got.length >= s.total(), { what: `all messages; ${at}` })
      expectAll(s.got, s.total())
      expect(s.gaps, at).toEqual([])
      s.proxy.heal()
    },
  )
})
