// A hostile service cannot make the client spin, hang or lie (docs/reliability.md, "Hostile peers").
// Every server here is hand-written (hostile-server.ts): the emulator does not misbehave this way.
import { poll } from '../../../../test/utils/wait.js'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { RealtimeError } from '@tandem/core'
import type { Message, StateChange } from '../types.js'
import { connected, hostileClient, hostileServer, subscribedAll, type HostileServer } from './hostile-server.js'

/** Backoff with a fixed draw (0.5): delays of 20, 40, 80, 100, 100… ms. */
const BACKOFF = { baseMs: 40, capMs: 200, stableMs: 10_000 }
const half = () => 0.5
/** The least time `attempts` backoff delays take. Timers fire late, never early: a little slack for the clock. */
const schedule = (attempts: number) =>
  Array.from({ length: attempts }, (_, k) => Math.floor(0.5 * Math.min(BACKOFF.capMs, BACKOFF.baseMs * 2 ** k))).reduce(
    (a, b) => a + b,
    0,
  ) - 15

const warnings: Error[] = []
const onWarning = (w: Error) => void warnings.push(w)
process.on('warning', onWarning)
afterEach(() => {
  warnings.length = 0
})
// The worker runs other files after this one (isolation is off): the listener goes with the file.
afterAll(() => void process.off('warning', onWarning))

const connections = (server: HostileServer, n: number) => poll(() => server.connections.length >= n, `${n} connections`)
const span = (times: number[], from: number, to: number) => times[to - 1]! - times[from - 1]!

describe('server-named delays: a floor, a cap, and no timer past 2^31 ms', () => {
  it('close 4290 with retryAfterMs 0 right after connected follows the backoff schedule, not a tight loop', async () => {
    const server = await hostileServer({
      connect(peer, frame) {
        connected(peer, frame)
        peer.close(4290, { code: 'rate_limited', retryAfterMs: 0 })
      },
    })
    hostileClient(server, { backoff: BACKOFF, random: half }).connect()
    await connections(server, 10)
    expect(span(server.connections, 1, 10)).toBeGreaterThanOrEqual(schedule(9))
  })

  it('retryAfterMs 1e12 is capped, with no timer overflow; 1e400 (Infinity) means "use the backoff"', async () => {
    const reasons = ['{"code":"rate_limited","retryAfterMs":1e12}', '{"code":"rate_limited","retryAfterMs":1e400}']
    const server = await hostileServer({
      connect(peer, frame) {
        connected(peer, frame)
        const reason = reasons.shift()
        if (reason) peer.close(4290, reason)
      },
    })
    const rt = hostileClient(server, { backoff: { ...BACKOFF, serverMaxMs: 300 }, random: half })
    const retries: (number | undefined)[] = []
    rt.on('state', (c: StateChange) => c.current === 'reconnecting' && retries.push(c.retryInMs))
    rt.connect()
    await connections(server, 3) // Infinity once meant "never again": this wait timed out
    expect(retries[0]).toBe(300) // the cap (`backoff.serverMaxMs`)
    expect(span(server.connections, 1, 2)).toBeGreaterThanOrEqual(300 - 15)
    expect(retries[1]).toBeLessThanOrEqual(BACKOFF.capMs) // the backoff's own delay
    expect(warnings.filter((w) => w.name === 'TimeoutOverflowWarning')).toEqual([])
  })

  it('close 4100 right after every connected counts as a failure: backoff, and one token per connection', async () => {
    const server = await hostileServer({
      connect(peer, frame) {
        connected(peer, frame)
        peer.close(4100, { code: 'token_expired' })
      },
    })
    const rt = hostileClient(server, { backoff: BACKOFF, random: half })
    rt.connect()
    await connections(server, 10)
    expect(span(server.connections, 1, 10)).toBeGreaterThanOrEqual(schedule(9))
    expect(rt.stats.tokens).toBeLessThanOrEqual(server.connections.length + 1)
  })

  it('expiresIn 0 from the server: in-band refreshes follow the backoff, not a spin', async () => {
    const refreshes: number[] = []
    const server = await hostileServer({
      connect: (peer, frame) => connected(peer, frame, { expiresIn: 0 }),
      request(peer, frame) {
        if (frame.type !== 'auth') return
        refreshes.push(performance.now())
        peer.send({ type: 'authed', id: frame.id, expiresIn: 0 })
      },
    })
    hostileClient(server, { backoff: BACKOFF, random: half }).connect()
    await poll(() => refreshes.length >= 10, '10 refreshes')
    expect(span(refreshes, 1, 10)).toBeGreaterThanOrEqual(schedule(9))
    expect(server.connections).toHaveLength(1)
  })

  it('a publish refused as rate_limited with retryAfterMs 0 is resent on a growing backoff, not at once', async () => {
    const refusals: number[] = []
    const server = await hostileServer({
      request(peer, frame) {
        if (frame.type === 'subscribe') peer.send({ type: 'subscribed', id: frame.id, channels: [] })
        if (frame.type !== 'publish') return
        refusals.push(performance.now())
        peer.send({ type: 'error', id: frame.id, error: { code: 'rate_limited', temporary: true, retryAfterMs: 0 } })
      },
    })
    const rt = hostileClient(server, { backoff: BACKOFF, random: half })
    void rt
      .channel('p:1')
      .publish('e', 1, { timeoutMs: 5_000 })
      .catch(() => {})
    await poll(() => refusals.length >= 10, '10 refusals')
    expect(span(refusals, 1, 10)).toBeGreaterThanOrEqual(schedule(9))
  })

  // 1 ms, not 0: the contract's minimum is 1, and a `connected` below it is refused as unreadable.
  it('heartbeatMs 1: the watchdog uses a floor, not a dead link at every tick', async () => {
    const server = await hostileServer({ connect: (peer, frame) => connected(peer, frame, { heartbeatMs: 1 }) })
    const rt = hostileClient(server, { backoff: BACKOFF, random: half })
    rt.connect()
    await poll(() => rt.state === 'connected', 'connected')
    const at = performance.now()
    await poll(() => server.connections.length >= 2, 'the watchdog drops the silent link')
    // The floor: 100 ms of heartbeat and 100 ms of grace, not 1 + 1.
    expect(performance.now() - at).toBeGreaterThanOrEqual(200 - 15)
  })
})

describe('frames outside the protocol are refused, never delivered', () => {
  /** A server that subscribes the channel at e1:0 and then sends `after(peer)` frames. */
  async function subscribedTo(pushes: Record<string, unknown>[], history?: Record<string, unknown>) {
    const server = await hostileServer({
      request(peer, frame) {
        if (frame.type === 'subscribe') {
          subscribedAll(peer, frame)
          for (const p of pushes) peer.send({ type: 'message', channel: 'h:1', event: 'n', data: null, ts: 0, ...p })
        } else if (frame.type === 'history' && history) peer.send({ type: 'history', id: frame.id, ...history })
      },
    })
    const rt = hostileClient(server, { backoff: BACKOFF })
    const errors: RealtimeError[] = []
    rt.on('error', (e) => errors.push(e))
    const got: string[] = []
    const gaps: string[] = []
    const ch = rt.channel('h:1')
    ch.on('discontinuity', (d) =>
      gaps.push(`${d.since.epoch}:${d.since.offset}→${d.resumedAt.epoch}:${d.resumedAt.offset}`),
    )
    ch.subscribe((m: Message) => got.push(`${m.epoch}:${m.offset}`))
    return { server, rt, errors, got, gaps }
  }
  const msg = (epoch: string, offset: number) => ({ epoch, offset, messageId: `m_${epoch}_${offset}` })

  it('offsets must be positive integers: -5 and 1.5 are errors, and 1.5 asks history for nothing', async () => {
    const s = await subscribedTo([msg('e1', -5), msg('e1', 1.5), msg('e1', 1)])
    await poll(() => s.got.length >= 1, 'the good message')
    expect(s.got).toEqual(['e1:1'])
    expect(s.errors.map((e) => e.code)).toEqual(['bad_frame', 'bad_frame'])
    expect(s.server.frames.filter((f) => f.type === 'history')).toEqual([])
  })

  it('an epoch may not go back to one the channel has left', async () => {
    const s = await subscribedTo([msg('e1', 1), msg('e2', 1), msg('e1', 2), msg('e2', 2)])
    await poll(() => s.got.length >= 3, 'three messages')
    expect(s.got).toEqual(['e1:1', 'e2:1', 'e2:2'])
    expect(s.errors.map((e) => e.code)).toEqual(['bad_frame'])
  })

  it('a history reply with complete: false and no messages never discards a live message already held', async () => {
    // Offset 3 arrives after 1: a gap. History cannot fill it (complete: false, nothing retained).
    const s = await subscribedTo([msg('e1', 1), msg('e1', 3)], {
      epoch: 'e1',
      offset: 3,
      messages: [],
      complete: false,
    })
    await poll(() => s.got.length >= 2, 'both live messages')
    expect(s.got).toEqual(['e1:1', 'e1:3'])
    expect(s.gaps).toEqual(['e1:1→e1:2']) // the gap is offset 2, reported before 3
  })

  it('close 4000–4099 is fatal under its own name, whatever the reason says', async () => {
    const server = await hostileServer({
      connect(peer, frame) {
        connected(peer, frame)
        peer.close(4000, { code: 'connection_dropped' })
      },
    })
    const rt = hostileClient(server, { backoff: BACKOFF })
    const failures: StateChange[] = []
    rt.on('state', (c) => c.current === 'failed' && failures.push(c))
    rt.connect()
    await poll(() => failures.length === 1, 'failed')
    expect(failures[0]!.error).toMatchObject({ code: 'protocol_error', temporary: false })
    expect(server.connections).toHaveLength(1)
  })
})
