// Chaos stream: 20 channels, a publisher connected straight to the emulator, and a subscriber
// whose socket goes through the fault proxy, which kills it hundreds of times at random moments
// (mid-handshake, mid-frame, mid-resubscribe, between frames). On every channel each message
// must arrive exactly once and in order, or a `discontinuity` must cover precisely the missing
// range (forced with a tiny history window in the second variant). The subscriber also publishes
// under the chaos: every acknowledged publish must be stored exactly once.
//
// Each variant runs twice: small in `npm test` (QUICK_KILLS), and big as a soak (`npm run test:soak`,
// tagged `soak`): CHAOS_KILLS kills in the first variant (default 1,000; `npm run chaos` runs 2,000).
import { startEmulator, type Emulator } from '@tandem/emulator'
import type { Discontinuity, Message, PublishAck } from '@tandem/realtime'
import { afterEach, describe, expect, it } from 'vitest'
import { startFaultProxy, type FaultProxy, type ProxyConnection } from '../utils/fault-proxy.js'
import { realtimeClient, untilState, untilSubscribed, type CountedRealtime } from '../utils/harness.js'
import { between, mulberry32, printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { slack, waitUntil, within } from '../utils/wait.js'
import { history } from '@tandem/realtime/history'

const FILE = 'chaos'
const SEED = seedFrom(0xc4a05)
/** The soak's kills (first variant; the second has a third). */
const KILLS = Number(process.env.CHAOS_KILLS ?? 1_000)
/** The `npm test` run's: enough kills to land in every phase (handshake, frames, resubscribe) many times. */
const QUICK_KILLS = 100
const CHANNELS = 20
const at = replay(SEED, FILE)
/** Time in proportion to the kills (a 300-kill run took 18 s on a quiet 2-core machine, so 150 ms a kill is ~8×). */
const timeout = (kills: number) => Math.max(120_000, kills * Math.max(150, slack(50)))

type Entry = { kind: 'message'; offset: number; n: unknown; epoch: string } | { kind: 'gap'; d: Discontinuity }

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

interface Run {
  kills: number
  historySize: number
  /** Rounds of publishes: one message per channel per round, this far apart (load shaping only). */
  paceMs: number
  clientPublishes: boolean
  /** Proxy latency each way: longer outages, so more is missed per reconnect. */
  latencyMs: number
  seed: number
}

interface Result {
  kills: number
  published: number
  delivered: number
  gaps: number
  missing: number
  clientAcked: number
  clientFailed: number
  reconnects: number
}

async function chaos(run: Run): Promise<Result> {
  const emu: Emulator = await startEmulator({
    seed: run.seed,
    // History kept by count only: the soak (npm run chaos) outlasts the default 2-minute TTL, and the
    // check of client publishes at the end reads every channel's history from its start.
    realtime: {
      historySize: run.historySize,
      historyTtlMs: 3_600_000,
      publishRate: { limit: 1_000_000, intervalMs: 1000 },
    },
  })
  cleanups.push(() => emu.close())
  const proxy: FaultProxy = await startFaultProxy({ target: emu.url, seed: run.seed, latencyMs: run.latencyMs })
  cleanups.push(() => proxy.close())
  const random = proxy.random

  const sub: CountedRealtime = realtimeClient(
    emu,
    { url: proxy.url, subject: 'subscriber' },
    {
      backoff: { baseMs: 2, capMs: 40 },
      random: mulberry32(run.seed + 1),
      maxQueued: 10_000,
    },
  )
  const pub: CountedRealtime = realtimeClient(
    emu,
    { url: emu.url, subject: 'publisher' },
    { maxQueued: 10_000, random: mulberry32(run.seed + 2) },
  )
  cleanups.push(
    () => sub.close(),
    () => pub.close(),
  )
  let reconnects = 0
  sub.on('state', (s) => void (s.current === 'connected' && reconnects++))
  const subErrors: string[] = []
  sub.on('error', (e) => void subErrors.push(e.code))

  const names = Array.from({ length: CHANNELS }, (_, i) => `chaos:${i}`)
  const logs = names.map(() => [] as Entry[])
  const offs = names.map((name, i) => {
    const ch = sub.channel(name)
    const off = ch.subscribe(
      (m: Message) =>
        void logs[i]!.push({ kind: 'message', offset: m.offset, n: (m.data as { n?: unknown })?.n, epoch: m.epoch }),
    )
    const offGap = ch.on('discontinuity', (d) => void logs[i]!.push({ kind: 'gap', d }))
    return () => {
      off()
      offGap()
    }
  })
  cleanups.push(() => offs.forEach((off) => off()))
  await untilSubscribed(names.map((n) => sub.channel(n)))

  // The publisher: rounds of one message per channel, each channel in order (n = offset).
  const published = names.map(() => 0)
  let publishing = true
  const publisher = (async () => {
    while (publishing) {
      await Promise.all(names.map((name, i) => pub.channel(name).publish('n', { n: ++published[i]! })))
      await new Promise((resolve) => setTimeout(resolve, run.paceMs))
    }
  })()

  // The subscriber publishes too, through the chaos: keys k, at most 20 in flight.
  const acked = new Map<number, PublishAck>()
  const failed = new Map<number, string>()
  let clientPublishing = run.clientPublishes
  const clientPublisher = (async () => {
    let k = 0
    const inFlight = new Set<Promise<unknown>>()
    while (clientPublishing) {
      const key = ++k
      const p = sub
        .channel(`cp:${key % 4}`)
        .publish('k', { k: key })
        .then(
          (ack) => void acked.set(key, ack),
          (e: { code?: string }) => void failed.set(key, e.code ?? String(e)),
        )
      inFlight.add(p)
      void p.finally(() => inFlight.delete(p))
      if (inFlight.size >= 20) await Promise.race(inFlight)
      else await new Promise((resolve) => setTimeout(resolve, 5))
    }
    await within(Promise.all(inFlight), 70_000, `client publishes settle; ${at}`)
  })()

  // The kills: each on the subscriber's current socket, at a random moment.
  const latest = () => proxy.connections.filter((c) => c.isWebSocket || c.bytes.up > 0).at(-1)
  let kills = 0
  while (kills < run.kills) {
    await waitUntil(() => latest() !== undefined, {
      timeoutMs: 15_000,
      what: `the subscriber to reconnect after ${kills} kills; ${at}`,
    })
    const conn = latest() as ProxyConnection
    // Every tenth time, let the resubscribe finish first, so missed messages really are delivered.
    if (kills % 10 === 0) {
      await untilState(sub, 'connected', 15_000).catch((e: Error) => {
        throw new Error(`${e.message}; ${at}`)
      })
      await untilSubscribed(
        names.map((n) => sub.channel(n)),
        15_000,
      ).catch((e: Error) => {
        throw new Error(`${e.message}; ${at}`)
      })
    }
    const r = random()
    if (r < 0.35)
      conn.cutAfter('down', between(random, 0, 4_000)) // handshake, resubscribe reply, message frames
    else if (r < 0.55) conn.cutAfter('up', between(random, 0, 800)) // connect, subscribe, publish frames
    const waitMs = between(random, 0, 120)
    await Promise.race([conn.done, new Promise((resolve) => setTimeout(resolve, waitMs))])
    conn.kill()
    kills++
  }

  // Quiet: no more faults. Every channel must converge on everything published.
  clientPublishing = false
  await clientPublisher
  publishing = false
  await within(publisher, 10_000, `publisher stops; ${at}`)
  await waitUntil(() => logs.every((log, i) => lastOffset(log) === published[i]), {
    timeoutMs: 30_000,
    what: `every channel to catch up (${names
      .map((n, i) => `${n} ${lastOffset(logs[i]!)}/${published[i]}`)
      .filter((_, i) => lastOffset(logs[i]!) !== published[i])
      .join(', ')}); ${at}`,
  })

  // The invariant, per channel.
  let delivered = 0
  let gaps = 0
  let missing = 0
  logs.forEach((log, i) => {
    let last = 0
    let pendingGap: Discontinuity | undefined
    for (const e of log) {
      if (e.kind === 'gap') {
        const where = `${names[i]} gap ${JSON.stringify(e.d)} after offset ${last}; ${at}`
        expect(pendingGap, `two discontinuities in a row: ${where}`).toBeUndefined()
        expect(e.d.reason, where).toBe('history_expired')
        expect(e.d.since.offset, `since must be the last delivered position: ${where}`).toBe(last)
        expect(e.d.resumedAt.offset, `resumedAt must be after since: ${where}`).toBeGreaterThan(last)
        pendingGap = e.d
        continue
      }
      const expected = pendingGap ? pendingGap.resumedAt.offset + 1 : last + 1
      const where = `${names[i]} offset ${e.offset} (expected ${expected}, gap ${JSON.stringify(pendingGap)}); ${at}`
      expect(e.offset, `out of order, duplicated or silently lost: ${where}`).toBe(expected)
      expect(e.n, `message content: ${where}`).toBe(e.offset)
      if (pendingGap) {
        gaps++
        missing += pendingGap.resumedAt.offset - pendingGap.since.offset
      }
      pendingGap = undefined
      last = e.offset
      delivered++
    }
    expect(pendingGap, `a discontinuity with nothing after it on ${names[i]}; ${at}`).toBeUndefined()
    expect(last, `${names[i]} did not reach the last published offset; ${at}`).toBe(published[i])
  })
  expect(delivered + missing, `delivered + reported missing must be every message; ${at}`).toBe(
    published.reduce((a, b) => a + b, 0),
  )
  // Only expected, typed errors: no bad frames, no unknown frames (nothing the cuts could corrupt reaches the parser).
  expect(
    subErrors.filter((c) => c === 'bad_frame' || c === 'unknown_frame' || c === 'frame_too_large'),
    at,
  ).toEqual([])

  if (run.clientPublishes) {
    // Every acknowledged publish is stored exactly once, where its ack says; nothing is stored twice.
    const stored = new Map<number, number[]>()
    for (let c = 0; c < 4; c++) {
      const ch = pub.channel(`cp:${c}`)
      let page = await history(ch, { limit: 1 })
      const epoch = page.epoch
      let since = 0
      for (;;) {
        page = await history(ch, { since: { epoch, offset: since }, limit: 1000 })
        for (const m of page.messages) {
          const k = (m.data as { k: number }).k
          stored.set(k, [...(stored.get(k) ?? []), m.offset])
        }
        expect(page.complete, `history of cp:${c} must reach back; ${at}`).toBe(true)
        if (!page.messages.length) break
        since = page.messages.at(-1)!.offset
      }
    }
    for (const [k, offsets] of stored)
      expect(offsets, `publish k=${k} stored ${offsets.length} times; ${at}`).toHaveLength(1)
    for (const [k, ack] of acked) {
      expect(stored.get(k), `acked publish k=${k} missing from history; ${at}`).toEqual([ack.offset])
    }
    // A publish that failed (none should: the deadline is 60 s) was stored at most once; that is checked above.
  }
  return {
    kills,
    published: published.reduce((a, b) => a + b, 0),
    delivered,
    gaps,
    missing,
    clientAcked: acked.size,
    clientFailed: failed.size,
    reconnects,
  }
}

function lastOffset(log: Entry[]): number {
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i]!
    if (e.kind === 'message') return e.offset
  }
  return 0
}

/** The first variant: a history large enough, so no gap is allowed; the subscriber publishes too. */
async function largeHistory(kills: number) {
  printSeedOnFailure(SEED, FILE)
  const started = Date.now()
  const r = await chaos({
    kills,
    historySize: 10_000,
    paceMs: 10,
    clientPublishes: true,
    latencyMs: 0,
    seed: SEED,
  })
  expect(r.gaps, `no discontinuity expected with a large history; ${at}`).toBe(0)
  expect(r.clientFailed, `client publishes must not fail; ${at}`).toBe(0)
  console.info(
    `[chaos] large history: ${r.kills} kills, ${r.reconnects} connections, ${r.published} messages published, ${r.delivered} delivered and checked, ` +
      `${r.clientAcked} client publishes acked and checked, ${((Date.now() - started) / 1000).toFixed(1)} s; ${at}`,
  )
}

/** The second variant: a history of 5 and 15 ms latency each way, so gaps must be reported exactly. */
async function tinyHistory(kills: number) {
  printSeedOnFailure(SEED, FILE)
  const started = Date.now()
  const r = await chaos({
    kills,
    historySize: 5,
    paceMs: 5,
    clientPublishes: false,
    latencyMs: 15,
    seed: SEED + 7,
  })
  expect(r.gaps, `the tiny history window must have been exceeded; ${at}`).toBeGreaterThan(0)
  console.info(
    `[chaos] historySize 5: ${r.kills} kills, ${r.reconnects} connections, ${r.published} published, ${r.delivered} delivered, ` +
      `${r.gaps} discontinuities covering ${r.missing} missing messages, ${((Date.now() - started) / 1000).toFixed(1)} s; ${at}`,
  )
}

const LARGE =
  'kills, 20 channels, history large enough: every message exactly once, in order; client publishes stored once'
const TINY = 'kills with historySize 5: gaps are reported, each covering precisely the missing range'
const tinyKills = (kills: number) => Math.max(50, Math.round(kills / 3))

describe('chaos: a subscriber killed at random moments', () => {
  it(`${QUICK_KILLS} ${LARGE}`, { timeout: timeout(QUICK_KILLS) }, () => largeHistory(QUICK_KILLS))
  it(`${tinyKills(QUICK_KILLS)} ${TINY}`, { timeout: timeout(tinyKills(QUICK_KILLS)) }, () =>
    tinyHistory(tinyKills(QUICK_KILLS)),
  )
  it(`soak: ${KILLS} ${LARGE}`, { tags: ['soak'], timeout: timeout(KILLS) }, () => largeHistory(KILLS))
  it(`soak: ${tinyKills(KILLS)} ${TINY}`, { tags: ['soak'], timeout: timeout(tinyKills(KILLS)) }, () =>
    tinyHistory(tinyKills(KILLS)),
  )
})
