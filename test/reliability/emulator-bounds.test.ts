// Issue 43, row 12: what one socket may make the emulator hold is bounded, from the contract.
// 1,000 `presence.enter` frames of 60 KB (each on a channel of its own) are refused and leave the
// heap as it was; subscriptions per connection, memberships per connection and members per channel
// stop at their caps (`limit_reached`); a channel goes when its last subscriber or member does (at
// once when it holds no message, at the sweep once its newest message is older than the dedupe
// window), and used again goes on in its epoch, so no client sees the drop.
import {
  MAX_CONNECTION_PRESENCE,
  MAX_CONNECTION_SUBSCRIPTIONS,
  MAX_MEMBER_DATA_BYTES,
  MAX_PRESENCE_MEMBERS,
} from '@tandem/contract'
import { startEmulator, type Emulator, type EmulatorOptions } from '@tandem/emulator'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { connectRaw, type RawFrame, type RawSocket } from '../utils/raw-socket.js'
import { during, waitUntil } from '../utils/wait.js'
import { heapAfterGc, MiB } from '../utils/heap.js'

const GRACE_MS = 200
/** Presence writes as fast as a test sends them: the caps, not the bucket, are under test here. */
const UNBOUNDED_RATE = { limit: 1_000_000, intervalMs: 1000 }

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function emulator(realtime: EmulatorOptions['realtime'] = {}): Promise<Emulator> {
  const emu = await startEmulator({
    host: '127.0.0.1',
    port: 0,
    plans: { maps: false, support: false, realtime: false },
    realtime: { presenceGraceMs: GRACE_MS, presenceRate: UNBOUNDED_RATE, ...realtime },
  })
  cleanups.push(() => emu.close())
  return emu
}

async function open(emu: Emulator, subject = 'user_1'): Promise<RawSocket> {
  const s = await connectRaw(emu.url, await emu.mintToken({ subject, scope: ['realtime'] }))
  cleanups.push(() => s.close())
  return s
}

type Result = { channel: string; error?: { code: string } }
const subscribe = async (s: RawSocket, names: string[]) =>
  ((await s.request({ type: 'subscribe', channels: names.map((channel) => ({ channel })) }, 20_000)).channels ??
    []) as Result[]
const range = (prefix: string, n: number, from = 0) => Array.from({ length: n }, (_, i) => `${prefix}${from + i}`)
const codeOf = (f: RawFrame): string => (f.type === 'error' ? (f.error as { code: string }).code : String(f.type))
const enter = (socket: RawSocket, channel: string) =>
  socket.request({ type: 'presence.enter', channel, data: { n: 1 } }).then(codeOf)

/** The app's channels whose names start with `prefix`, as `GET /realtime/v1/channels` lists them. */
async function listed(emu: Emulator, prefix: string): Promise<{ name: string; epoch: string }[]> {
  const token = await emu.mintToken({ subject: 'ops', scope: ['realtime'] })
  const res = await fetch(`${emu.url}/realtime/v1/channels?prefix=${encodeURIComponent(prefix)}&limit=100`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: { name: string; epoch: string }[] }).data
}

describe('emulator state per connection and per app is bounded', () => {
  it('1,000 presence.enter frames of 60 KB are refused and leave the heap as it was', async () => {
    const emu = await emulator()
    const s = await open(emu)
    const names = range('big:', 1000)
    expect((await subscribe(s, names)).filter((r) => r.error)).toEqual([])
    const blob = 'x'.repeat(60 * 1024)
    const heapBefore = heapAfterGc()
    const from = s.frames.length
    for (const [i, channel] of names.entries()) s.send({ type: 'presence.enter', id: `e${i}`, channel, data: { blob } })
    await waitUntil(() => s.frames.slice(from).filter((f) => String(f.id).startsWith('e')).length === names.length, {
      timeoutMs: 60_000,
      what: 'every enter answered',
    })
    const replies = s.frames.slice(from).filter((f) => String(f.id).startsWith('e'))
    const heapHeld = heapAfterGc()
    s.close()
    await waitUntil(() => emu.realtime.stats.connections.open === 0, { what: 'the socket gone' })
    const heapAfter = heapAfterGc()
    const codes = new Map<string, number>()
    for (const r of replies) codes.set(codeOf(r), (codes.get(codeOf(r)) ?? 0) + 1)
    console.info(
      `60 KB enters: ${[...codes].map(([c, n]) => `${n} ${c}`).join(', ')}; heap ${(heapBefore / MiB).toFixed(1)} → ` +
        `${(heapHeld / MiB).toFixed(1)} MiB while the socket is open → ${(heapAfter / MiB).toFixed(1)} MiB after it closed`,
    )
    expect(codes).toEqual(new Map([['message_too_large', 1000]]))
    expect((replies[0]!.error as { message: string }).message).toContain(`${MAX_MEMBER_DATA_BYTES} bytes`)
    // 1,000 × 60 KB held would be 60 MiB: the bound is generous for the socket's own buffers.
    expect(heapHeld - heapBefore).toBeLessThan(30 * MiB)
    expect(await listed(emu, 'big:')).toEqual([])
  })

  it('caps subscriptions and memberships per connection', async () => {
    const emu = await emulator()
    const s = await open(emu)
    // Subscriptions: the cap in two subscribes; the extra channels refused one by one.
    expect((await subscribe(s, range('sub:', MAX_CONNECTION_SUBSCRIPTIONS - 3))).filter((r) => r.error)).toEqual([])
    const over = await subscribe(s, range('sub:', 6, MAX_CONNECTION_SUBSCRIPTIONS - 3))
    expect(over.map((r) => r.error?.code ?? 'ok')).toEqual(['ok', 'ok', 'ok', ...Array(3).fill('limit_reached')])
    expect((await subscribe(s, ['sub:0'])).map((r) => r.error?.code ?? 'ok')).toEqual(['ok']) // already held: fine
    await s.request({ type: 'unsubscribe', channels: ['sub:1'] })
    expect((await subscribe(s, ['sub:again'])).map((r) => r.error?.code ?? 'ok')).toEqual(['ok'])

    // Memberships: one connection is a member of at most MAX_CONNECTION_PRESENCE channels.
    const entered = await Promise.all(range('sub:', MAX_CONNECTION_PRESENCE + 2, 2).map((c) => enter(s, c)))
    expect(entered.filter((c) => c === 'ok')).toHaveLength(MAX_CONNECTION_PRESENCE)
    expect(entered.slice(MAX_CONNECTION_PRESENCE)).toEqual(['limit_reached', 'limit_reached'])
    await s.request({ type: 'presence.leave', channel: 'sub:2' })
    expect(await enter(s, 'sub:200')).toBe('ok')

    console.info(
      `caps: ${over.filter((r) => r.error).length} subscriptions past ${MAX_CONNECTION_SUBSCRIPTIONS} refused, ` +
        `${entered.length - MAX_CONNECTION_PRESENCE} memberships past ${MAX_CONNECTION_PRESENCE}`,
    )
  })

  it('caps the members of a channel, those held for a resume included', async () => {
    // Each member's socket closes once it has entered: its member is held for the (long) grace, so
    // it still counts, and the enters that follow are not told to 1,000 open sockets.
    const emu = await emulator({ presenceGraceMs: 60_000 })
    const probe = await open(emu, 'probe')
    await subscribe(probe, ['crowd:1'])
    const codes: string[] = []
    for (let i = 0; i < MAX_PRESENCE_MEMBERS + 1; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, MAX_PRESENCE_MEMBERS + 1 - i) }, (_, j) => open(emu, `m_${i + j}`)),
      )
      await Promise.all(batch.map((b) => subscribe(b, ['crowd:1'])))
      for (const b of batch) codes.push(await enter(b, 'crowd:1'))
      for (const b of batch) b.close()
      await waitUntil(() => emu.realtime.stats.connections.open === 1, { what: 'the batch closed' })
    }
    const members = (await probe.request({ type: 'presence.get', channel: 'crowd:1' })).members as unknown[]
    console.info(`members: ${codes.filter((c) => c !== 'ok').length} enters past ${MAX_PRESENCE_MEMBERS} refused`)
    expect(codes.filter((c) => c === 'ok')).toHaveLength(MAX_PRESENCE_MEMBERS)
    expect(codes.at(-1)).toBe('limit_reached')
    expect(members).toHaveLength(MAX_PRESENCE_MEMBERS)
    expect(await enter(probe, 'crowd:1')).toBe('limit_reached')
  })

  it('drops a channel once nobody is on it: at once without messages, after the grace for a member', async () => {
    const grace = 2_000
    const emu = await emulator({ presenceGraceMs: grace })
    const s = await open(emu)
    await subscribe(s, range('tmp:', 50))
    await s.request({ type: 'presence.enter', channel: 'tmp:0', data: null })
    await s.request({ type: 'publish', channel: 'tmp:1', event: 'e', data: 1, idempotencyKey: 'k1' })
    await s.request({ type: 'history', channel: 'tmp:never-subscribed' }) // a read leaves nothing behind
    expect((await listed(emu, 'tmp:')).map((c) => c.name).sort()).toEqual(range('tmp:', 50).sort())
    const heapOpen = heapAfterGc()

    await s.request({ type: 'unsubscribe', channels: range('tmp:', 10, 40) })
    expect(await listed(emu, 'tmp:')).toHaveLength(40)
    s.close() // tmp:0's member is held for a resume, then leaves; tmp:1 keeps its message
    await waitUntil(() => emu.realtime.stats.connections.open === 0, { what: 'the socket gone' })
    const names = async () => (await listed(emu, 'tmp:')).map((c) => c.name).sort()
    const held = await names()
    let after = held
    for (const deadline = Date.now() + grace + 5_000; after.length > 1 && Date.now() < deadline;) {
      await during(50)
      after = await names()
    }
    const heapDropped = heapAfterGc()
    console.info(
      `channel drops: 50 listed → ${held.length} right after the close (${held.join(', ')}) → ${after.join(', ')} ` +
        `after the grace; heap ${(heapOpen / MiB).toFixed(1)} → ${(heapDropped / MiB).toFixed(1)} MiB`,
    )
    expect(held).toEqual(['tmp:0', 'tmp:1'])
    expect(after).toEqual(['tmp:1'])
  })

  it('keeps the positions of at most 10,000 forgotten channels: past that, the oldest starts a new epoch', async () => {
    const emu = await emulator()
    const s = await open(emu)
    const [first] = await subscribe(s, ['pos:first'])
    const epoch = (first as Result & { epoch: string }).epoch
    await s.request({ type: 'unsubscribe', channels: ['pos:first'] })
    const back = async () =>
      ((await subscribe(s, ['pos:first']))[0] as Result & { epoch: string; recovered: boolean }).epoch
    // Forgotten and used again at once: the same epoch (a resume from it is whole).
    expect(await back()).toBe(epoch)
    await s.request({ type: 'unsubscribe', channels: ['pos:first'] })
    // 10,000 channels forgotten after it (the emulator keeps 10,000 positions): its own is gone.
    for (let i = 0; i < 10; i++) {
      const names = range(`pos:${i}:`, 1000)
      await subscribe(s, names)
      await s.request({ type: 'unsubscribe', channels: names }, 20_000)
    }
    expect(await listed(emu, 'pos:')).toEqual([])
    const later = await back()
    console.info(`positions: pos:first back in ${epoch === later ? 'the same' : 'a new'} epoch after 10,000 others`)
    expect(later).not.toBe(epoch)
  })

  it('the sweep drops a channel whose newest message left the dedupe window; used again, it goes on in its epoch', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], now: Date.now() })
    try {
      const emu = await emulator({ historyTtlMs: 1_000 })
      type Ack = RawFrame & { epoch: string; offset: number; duplicate: boolean }
      const publish = async (s: RawSocket, key: string) =>
        (await s.request({ type: 'publish', channel: 'kept:1', event: 'e', data: 1, idempotencyKey: key })) as Ack
      const s = await open(emu)
      await publish(s, 'k0')
      const first = await publish(s, 'k1')
      s.close()
      await waitUntil(() => emu.realtime.stats.connections.open === 0, { what: 'the socket gone' })
      expect((await listed(emu, 'kept:')).map((c) => c.epoch)).toEqual([first.epoch]) // its dedupe window runs
      vi.advanceTimersByTime(60_000) // past the history's TTL, within the dedupe window (at least 2 min)
      expect(await listed(emu, 'kept:')).toHaveLength(1)
      vi.advanceTimersByTime(90_000) // past the dedupe window: the next sweep drops it
      const dropped = await listed(emu, 'kept:')

      // Used again: its epoch and offsets go on, as if it had been kept with its history expired.
      const again = await open(emu)
      const resumed = (await again.request({
        type: 'subscribe',
        channels: [{ channel: 'kept:1', since: { epoch: first.epoch, offset: first.offset } }],
      })) as RawFrame & { channels: { epoch: string; offset: number; recovered: boolean }[] }
      const behind = (await again.request({
        type: 'history',
        channel: 'kept:1',
        since: { epoch: first.epoch, offset: first.offset - 1 },
      })) as RawFrame & { complete: boolean }
      const second = await publish(again, 'k1')
      console.info(
        `sweep: kept:1 listed ${dropped.length} after 150 s; used again at ${resumed.channels[0]!.epoch}/` +
          `${resumed.channels[0]!.offset} (was ${first.epoch}/${first.offset}), next publish offset ${second.offset}`,
      )
      expect(dropped).toEqual([])
      expect(resumed.channels[0]).toMatchObject({ epoch: first.epoch, offset: first.offset, recovered: true })
      expect(behind.complete).toBe(false) // what it held is gone, as its history would be
      expect(second).toMatchObject({ epoch: first.epoch, offset: first.offset + 1, duplicate: false })
    } finally {
      vi.useRealTimers()
    }
  })
})
