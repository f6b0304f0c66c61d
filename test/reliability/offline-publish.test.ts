// A publish made while the connection is down is queued "until the connection is back": its ack
// deadline (`timeoutMs`) starts when the frame is sent, and only `queueTimeoutMs`, counted from
// the call, ends its wait, with its own code (`queue_timeout`), never `timeout`. Before issue 27 the
// ack deadline ran from the call, so 25 s offline lost both publishes of a chat (2 of 2).
import { startEmulator } from '@tandem/emulator'
import type { RealtimeError } from '@tandem/core'
import { describe, expect, it, type TestContext } from 'vitest'
import { startFaultProxy } from '../utils/fault-proxy.js'
import { realtimeClient, untilState, untilSubscribed } from '../utils/harness.js'
import { mulberry32, replay, seedFrom } from '../utils/seed.js'
import { waitUntil, within } from '../utils/wait.js'
import { history } from '@tandem/realtime/history'

const FILE = 'offline-publish'
const SEED = seedFrom(0x0ff1)
const at = replay(SEED, FILE)
/** The ack deadline under test: short, so the outage below lasts many times over it. */
const ACK_MS = 200

async function stack(ctx: TestContext) {
  ctx.onTestFailed(() => console.error(`\n[reliability] ${FILE} failed with ${at}\n`))
  const cleanups: (() => unknown)[] = []
  ctx.onTestFinished(async () => {
    for (const c of cleanups.splice(0).reverse()) await c()
  })
  const emu = await startEmulator({ seed: SEED })
  const proxy = await startFaultProxy({ target: emu.url, seed: SEED })
  cleanups.push(
    () => emu.close(),
    () => proxy.close(),
  )
  const pub = realtimeClient(
    emu,
    { url: proxy.url, subject: 'pub' },
    { backoff: { baseMs: 20, capMs: 100 }, random: mulberry32(SEED) },
  )
  const reader = realtimeClient(emu, { url: emu.url, subject: 'reader' })
  cleanups.push(
    () => pub.close(),
    () => reader.close(),
  )
  pub.connect()
  await untilState(pub, 'connected')
  /** The link goes down and stays down (every reconnect refused) until `back()`; waits until it has lasted `ms`. */
  const outage = async (ms: number) => {
    proxy.mode = 'refuse'
    proxy.killAll()
    const from = Date.now()
    await untilState(pub, 'reconnecting')
    await waitUntil(() => proxy.stats.refused >= 3 && Date.now() - from >= ms, {
      timeoutMs: ms + 5_000,
      what: `an outage of ${ms} ms with refused reconnects; ${at}`,
    })
  }
  const back = async () => {
    proxy.heal()
    await untilState(pub, 'connected')
  }
  const stored = async (channel: string) =>
    (await history(reader.channel(channel))).messages.map((m) => m.data as string)
  return { emu, proxy, pub, reader, outage, back, stored }
}

describe('a publish queued while offline', () => {
  it('waits out an outage many times its ack deadline, then is sent once and acked', async (ctx) => {
    const s = await stack(ctx)
    const live: string[] = []
    s.reader.channel('chat:offline').subscribe((m) => void live.push(m.data as string))
    await untilSubscribed([s.reader.channel('chat:offline')])
    const down = s.outage(ACK_MS * 8)
    await untilState(s.pub, 'reconnecting')
    const settled: string[] = []
    const sent = ['first', 'second'].map((text) =>
      s.pub
        .channel('chat:offline')
        .publish('message', text, { timeoutMs: ACK_MS })
        .then(
          (ack) => (settled.push(`ok ${text}`), ack),
          (e: RealtimeError) => (settled.push(`${e.code} ${text}`), e),
        ),
    )
    await down
    expect(settled, `nothing settled while offline (${ACK_MS * 8} ms, ack deadline ${ACK_MS} ms); ${at}`).toEqual([])
    await s.back()
    const acks = await within(Promise.all(sent), 10_000, `both acks; ${at}`)
    expect(settled.sort(), at).toEqual(['ok first', 'ok second'])
    expect(
      acks.map((a) => ('offset' in a ? a.offset : a.code)),
      at,
    ).toEqual([1, 2])
    await waitUntil(() => live.length === 2, { what: `both live at the reader (have ${live.length}); ${at}` })
    expect(live, at).toEqual(['first', 'second'])
    expect(await s.stored('chat:offline'), `stored once each; ${at}`).toEqual(['first', 'second'])
  })

  it('fails with queue_timeout, carrying what it waited on, once queueTimeoutMs has passed unsent; it is never sent', async (ctx) => {
    const s = await stack(ctx)
    await s.outage(50)
    const failed = await within(
      s.pub
        .channel('chat:gaveup')
        .publish('message', 'never', { timeoutMs: 60_000, queueTimeoutMs: 300 })
        .then(
          () => expect.unreachable('the publish should not be sent'),
          (e: RealtimeError) => e,
        ),
      5_000,
      `queue_timeout; ${at}`,
    )
    expect(failed, at).toMatchObject({ name: 'RealtimeError', code: 'queue_timeout', temporary: true })
    expect(failed.message, at).toMatch(/^publish not sent within 300 ms: /)
    expect(failed.cause, `the reconnect's reason; ${at}`).toMatchObject({ name: 'RealtimeError' })
    await s.back()
    await s.pub.channel('chat:gaveup').publish('message', 'later')
    expect(await s.stored('chat:gaveup'), `the expired publish was dropped, not sent; ${at}`).toEqual(['later'])
  })
})
