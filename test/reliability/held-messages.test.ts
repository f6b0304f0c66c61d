// Held messages are bounded. A hostile server (written here: the emulator answers at once) leaves
// a subscribe, or a gap's history read, unanswered while it pushes thousands of live messages. The
// client holds them for delivery in order after the answer, but only up to its budget (`maxHeld`,
// `maxHeldBytes`); past it it drops them and reads them from history afterwards, page by page. The
// app must end with every message exactly once, or with a discontinuity for what history no longer has.
import type { AddressInfo } from 'node:net'
import { createRealtime, DEFAULTS, type Discontinuity, type Message, type RealtimeOptions } from '@tandem/realtime'
import { beforeEach, describe, expect, it, type TestContext } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { during, waitUntil } from '../utils/wait.js'
import { heapAfterGc, MiB } from '../utils/heap.js'

const FILE = 'held-messages'
const SEED = seedFrom(0x4e1d)
const at = replay(SEED, FILE)

type Frame = { type: string; id?: number; [field: string]: unknown }
const FLOOD = 'flood:1'
const MARK = 'mark:1'
const PAD = 'x'.repeat(1_000)

/** Message `n` of a channel, as the server sends it (about 1.1 KB): made on demand, so the server holds none. */
const message = (channel: string, n: number) => ({
  type: 'message',
  channel,
  event: 'n',
  data: { n, pad: PAD },
  offset: n,
  epoch: 'e1',
  messageId: `m${n}`,
  clientId: 'pub',
  ts: 1,
})
const frameChars = (n: number) => JSON.stringify(message(FLOOD, n)).length
/** How many frames 1, 2, … fit within `maxBytes` characters: where a held run stops. */
const fitting = (maxBytes: number) => {
  let n = 0
  for (let sum = 0; (sum += frameChars(n + 1)) <= maxBytes;) n++
  return n
}

/**
 * The hostile server: each channel's log is 1..top (only `from`.. of it retained in history). It
 * answers subscribe and history at once unless told to stall them (or to refuse the first `failHistory`
 * history reads with an error reply), and pushes when told to.
 */
async function hostile(
  ctx: TestContext,
  o: { stall: 'subscribe' | 'history'; retainedFrom?: number; failHistory?: number },
) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  const top = new Map<string, number>([
    [FLOOD, 0],
    [MARK, 0],
  ])
  const from = o.retainedFrom ?? 1
  const history: Frame[] = []
  let failures = o.failHistory ?? 0
  let stalled: Frame | undefined
  /** Where the channels stood when the stalled frame came: its late reply says that, as a slow link would. */
  let then = new Map<string, number>()
  let socket: WebSocket | undefined
  const send = (frame: object) => new Promise<void>((resolve) => socket!.send(JSON.stringify(frame), () => resolve()))
  const answer = (f: Frame, at = top) => {
    if (f.type === 'subscribe') {
      const channels = (f.channels as { channel: string }[]).map(({ channel }) => ({
        channel,
        epoch: 'e1',
        offset: at.get(channel) ?? 0,
        recovered: true,
        missed: [],
      }))
      return send({ type: 'subscribed', id: f.id, channels })
    }
    if (failures > 0) {
      failures--
      return send({ type: 'error', id: f.id, error: { code: 'internal', message: 'history is down', temporary: true } })
    }
    // history: what is retained after `since`, at most `limit`.
    const channel = f.channel as string
    const last = at.get(channel) ?? 0
    const after = (f.since as { offset: number }).offset + 1
    const start = Math.max(after, from)
    const end = Math.min(last, start + (f.limit as number) - 1)
    const messages = Array.from({ length: Math.max(0, end - start + 1) }, (_, i) => message(channel, start + i))
    return send({ type: 'history', id: f.id, channel, epoch: 'e1', offset: last, messages, complete: start === after })
  }
  wss.on('connection', (ws) => {
    socket = ws
    ws.on('message', (data) => {
      const f = JSON.parse(String(data)) as Frame
      if (f.type === 'connect')
        return void send({
          type: 'connected',
          id: f.id,
          connectionId: 'conn_1',
          heartbeatMs: 60_000,
          maxMessageBytes: 65_536,
          expiresIn: 600,
          resumed: false,
        })
      if (f.type === 'history') history.push(f)
      const flood = f.type === 'subscribe' ? (f.channels as { channel: string }[])[0]?.channel : f.channel
      if (f.type === o.stall && flood === FLOOD && !stalled) {
        stalled = f
        then = new Map(top)
      } else if (f.type === 'subscribe' || f.type === 'history') void answer(f)
    })
  })
  ctx.onTestFinished(() => new Promise<void>((resolve) => wss.close(() => resolve())))
  return {
    url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}/realtime`,
    history,
    stalled: () => stalled,
    /** Live messages `first`..`last` on a channel, paced by the socket (the server keeps no buffer of them). */
    async push(channel: string, first: number, last: number) {
      for (let n = first; n <= last; n++) {
        top.set(channel, Math.max(top.get(channel)!, n))
        const sent = send(message(channel, n))
        if (n % 500 === 0 || n === last) await sent
      }
    },
    release: () => answer(stalled!, then),
  }
}

/** A client of that server, its flood channel's messages and discontinuities, and a marker channel. */
async function client(ctx: TestContext, url: string, options: RealtimeOptions = {}) {
  const rt = createRealtime(
    { auth: { fetchToken: async () => ({ token: 'tok', expiresIn: 600 }) }, url },
    { WebSocket, ...options },
  )
  ctx.onTestFinished(() => rt.close())
  const mark = rt.channel(MARK)
  const marks: number[] = []
  mark.subscribe((m) => void marks.push(m.offset))
  await waitUntil(() => mark.state === 'subscribed', { what: `${MARK} subscribed; ${at}` })
  const got: number[] = []
  const gaps: Discontinuity[] = []
  const flood = rt.channel(FLOOD)
  flood.subscribe((m: Message) => void got.push(m.offset))
  flood.on('discontinuity', (d) => void gaps.push(d))
  /** Every frame pushed before marker `n` has been read by the client (one socket keeps order). */
  const marked = (n: number) => waitUntil(() => marks.includes(n), { timeoutMs: 60_000, what: `marker ${n}; ${at}` })
  return { rt, flood, got, gaps, marked }
}

/** Strictly increasing offsets (no duplicate), and every hole is one a discontinuity reported. */
function expectHonest(got: number[], gaps: Discontinuity[], last: number) {
  const reported = new Set(gaps.map((d) => `${d.since.offset}→${d.resumedAt.offset}`))
  let prev = 0
  for (const n of got) {
    expect(n, `offsets increase, each once; ${at}`).toBeGreaterThan(prev)
    if (n !== prev + 1) expect(reported, `the hole ${prev}..${n} is reported; ${at}`).toContain(`${prev}→${n - 1}`)
    prev = n
  }
  expect(prev, at).toBe(last)
}

describe('held messages are bounded', () => {
  beforeEach(() => printSeedOnFailure(SEED, FILE))

  it('a subscribe left unanswered under a flood of 50,000 × 1 KB: the heap stays within the budget, then every message arrives once', async (ctx) => {
    const N = 50_000
    const server = await hostile(ctx, { stall: 'subscribe' })
    const c = await client(ctx, server.url)
    await waitUntil(() => server.stalled() !== undefined, { what: `the stalled subscribe; ${at}` })
    const before = heapAfterGc()
    await server.push(FLOOD, 1, N)
    await server.push(MARK, 1, 1)
    await c.marked(1)
    const grown = heapAfterGc() - before
    console.info(`[held-messages] heap grown by ${(grown / MiB).toFixed(1)} MiB while ${N} messages were held back`)
    // Unbounded, 50,000 parsed messages of ~1.1 KB stay on the heap (~60 MiB); the budget is 8 MiB of frames.
    expect(grown, `heap growth under the flood; ${at}`).toBeLessThan(DEFAULTS.held.maxBytes * 2.5)
    expect(c.got, at).toEqual([])

    await server.release()
    await waitUntil(() => c.got.length >= N, { timeoutMs: 60_000, what: `all ${N} messages (${c.got.length}); ${at}` })
    expect(c.got, `1..${N}, each once, in order; ${at}`).toEqual(Array.from({ length: N }, (_, i) => i + 1))
    expect(c.gaps, at).toEqual([])
    // What was held (the first 8 MiB of frames) is delivered, the rest read from history from there.
    expect(server.history[0]?.since, at).toEqual({ epoch: 'e1', offset: fitting(DEFAULTS.held.maxBytes) })
  })

  it('the held run stops at maxHeld messages, or maxHeldBytes: history is read from exactly there', async (ctx) => {
    for (const [options, expected] of [
      [{ maxHeld: 500 }, 500],
      [{ maxHeldBytes: 100_000 }, fitting(100_000)],
    ] as const) {
      const server = await hostile(ctx, { stall: 'subscribe' })
      const c = await client(ctx, server.url, options)
      await waitUntil(() => server.stalled() !== undefined, { what: `the stalled subscribe; ${at}` })
      await server.push(FLOOD, 1, 3_000)
      await server.release()
      await waitUntil(() => c.got.length >= 3_000, { what: `3,000 messages (${c.got.length}); ${at}` })
      expect(server.history[0]?.since, `${JSON.stringify(options)}; ${at}`).toEqual({ epoch: 'e1', offset: expected })
      expect(c.got, at).toEqual(Array.from({ length: 3_000 }, (_, i) => i + 1))
      expect(c.gaps, at).toEqual([])
      c.rt.close()
    }
  })

  it("a gap's history read left unanswered under a flood: held up to the budget, then history pages fill everything once", async (ctx) => {
    const N = 5_000
    const server = await hostile(ctx, { stall: 'history' })
    const c = await client(ctx, server.url, { maxHeld: 300 })
    await waitUntil(() => c.flood.state === 'subscribed', { what: `${FLOOD} subscribed; ${at}` })
    await server.push(FLOOD, 1, 1)
    await server.push(FLOOD, 3, 3) // 2 skipped: the client asks history for it, which stalls
    await waitUntil(() => server.stalled() !== undefined, { what: `the stalled history read; ${at}` })
    await server.push(FLOOD, 4, N)
    await server.push(MARK, 1, 1)
    await c.marked(1)
    expect(server.stalled()?.since, at).toEqual({ epoch: 'e1', offset: 1 })
    expect(c.got, at).toEqual([1])
    await server.release()
    await waitUntil(() => c.got.length >= N, { timeoutMs: 30_000, what: `all ${N} messages (${c.got.length}); ${at}` })
    expect(c.got, at).toEqual(Array.from({ length: N }, (_, i) => i + 1))
    expect(c.gaps, at).toEqual([])
    // The late page brought 2 and 3 only (the channel stood at 3 when asked); of the live ones
    // only 300 were held (3..302), the rest came from history, a page at a time from there.
    expect(
      server.history.map((f) => (f.since as { offset: number }).offset),
      at,
    ).toEqual([1, 302, 1_302, 2_302, 3_302, 4_302])
  })

  it('history no longer has what was dropped: an honest discontinuity, then the rest, none twice', async (ctx) => {
    const N = 3_000
    const server = await hostile(ctx, { stall: 'subscribe', retainedFrom: N - 299 })
    const c = await client(ctx, server.url, { maxHeld: 500 })
    await waitUntil(() => server.stalled() !== undefined, { what: `the stalled subscribe; ${at}` })
    await server.push(FLOOD, 1, N)
    await server.release()
    await waitUntil(() => c.got.at(-1) === N, { what: `the last message (${c.got.at(-1)}); ${at}` })
    expectHonest(c.got, c.gaps, N)
    expect(
      c.gaps.map((d) => [d.reason, d.since.offset, d.resumedAt.offset]),
      at,
    ).toEqual([['history_expired', 500, N - 300]])
    expect(c.got.length, at).toBe(800)
  })

  // A gap's history read that fails keeps what was dropped: it is read again after a backoff (the
  // client's, small here), and only past DEFAULTS.fillAttempts reported lost. Never silence.
  const QUICK = { maxHeld: 500, backoff: { baseMs: 20, capMs: 50 } }

  it('the history read for what was dropped fails once, then succeeds: every message once, in order, no discontinuity', async (ctx) => {
    const N = 3_000
    const server = await hostile(ctx, { stall: 'subscribe', failHistory: 1 })
    const c = await client(ctx, server.url, QUICK)
    await waitUntil(() => server.stalled() !== undefined, { what: `the stalled subscribe; ${at}` })
    await server.push(FLOOD, 1, N)
    await server.release()
    // A quiet channel from here: no live message opens a later gap that would fetch them anyway.
    await waitUntil(() => c.got.length >= N, { timeoutMs: 30_000, what: `all ${N} messages (${c.got.length}); ${at}` })
    expect(c.got, at).toEqual(Array.from({ length: N }, (_, i) => i + 1))
    expect(c.gaps, at).toEqual([])
    // The failed read and its retry both start after the 500 held.
    expect(
      server.history.slice(0, 2).map((f) => f.since),
      at,
    ).toEqual([
      { epoch: 'e1', offset: 500 },
      { epoch: 'e1', offset: 500 },
    ])
  })

  it('the history read for what was dropped keeps failing: after a bounded retry, exactly one discontinuity covers the dropped range', async (ctx) => {
    const N = 3_000
    const server = await hostile(ctx, { stall: 'subscribe', failHistory: Infinity })
    const c = await client(ctx, server.url, QUICK)
    const errors: string[] = []
    c.rt.on('error', (e) => void errors.push(e.code))
    await waitUntil(() => server.stalled() !== undefined, { what: `the stalled subscribe; ${at}` })
    await server.push(FLOOD, 1, N)
    await server.release()
    await waitUntil(() => c.gaps.length > 0, {
      timeoutMs: 30_000,
      what: `a discontinuity (${c.got.length} got); ${at}`,
    })
    expect(
      c.gaps.map((d) => [d.channel, d.reason, d.since, d.resumedAt]),
      at,
    ).toEqual([[FLOOD, 'history_unavailable', { epoch: 'e1', offset: 500 }, { epoch: 'e1', offset: N }]])
    expect(c.got, at).toEqual(Array.from({ length: 500 }, (_, i) => i + 1))
    expectHonest(c.got, [], 500)
    expect(server.history.length, `history reads; ${at}`).toBe(DEFAULTS.fillAttempts)
    expect(errors, at).toEqual(Array.from({ length: DEFAULTS.fillAttempts }, () => 'internal'))
    // The retries stopped (several times the largest backoff later: none more), and delivery goes on after N.
    await during(300)
    expect(server.history.length, at).toBe(DEFAULTS.fillAttempts)
    expect(c.gaps.length, at).toBe(1)
    await server.push(FLOOD, N + 1, N + 2)
    await waitUntil(() => c.got.at(-1) === N + 2, { what: `messages after the gap (${c.got.at(-1)}); ${at}` })
    expect(c.got.slice(500), at).toEqual([N + 1, N + 2])
  })
})
