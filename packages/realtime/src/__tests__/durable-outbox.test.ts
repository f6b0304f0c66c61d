// Publishes through a durable outbox (`createRealtime(source, { outbox })`), against the emulator over
// real WebSockets. A "reload" is a new outbox and a new client on the same in-memory storage, the old
// ones stopped; "cannot connect" is a token endpoint that is down, then a client never connected.
import { createClient, isRealtimeError, isValidationError, type RealtimeError } from '@tandem/core'
import {
  durableOutbox,
  memoryStorage,
  type DurableOutbox,
  type OutboxEntry,
  type PersistStorage,
} from '@tandem/core/persist'
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { waitUntil } from '../../../../test/utils/wait.js'
import { history } from '../history.js'
import { createRealtime, type PublishAck, type RealtimeOptions } from '../index.js'
import { client, collect, untilState, untilSubscribed, useEmulator } from './helpers.js'

const emu = useEmulator()

/** One page: its outbox (fast retries) and its realtime client on it. */
async function page(
  key: string,
  storage: PersistStorage,
  o: { subject?: string; scope?: string[]; down?: () => boolean; options?: RealtimeOptions } = {},
) {
  const outbox = durableOutbox({ key, storage, retry: { baseMs: 20, maxMs: 100 } })
  const seen = { restored: [] as number[], applied: [] as OutboxEntry[], results: [] as unknown[], replayed: 0 }
  outbox.on('restore', ({ entries }) => seen.restored.push(entries.length))
  outbox.on('applied', ({ entry, result }) => void (seen.applied.push(entry), seen.results.push(result)))
  outbox.on('replay', () => seen.replayed++)
  const subject = o.subject ?? 'kim'
  const rt = client(
    emu(),
    {
      subject,
      fetchToken: async () => {
        if (o.down?.()) throw new TypeError('fetch failed') // the token endpoint is down
        return { token: await emu().mintToken({ subject, scope: o.scope ?? ['realtime'] }), expiresIn: 600 }
      },
    },
    { outbox, ...o.options },
  )
  await outbox.ready
  return { outbox, rt, seen }
}

const held = (outbox: DurableOutbox, n: number, what: string) =>
  waitUntil(() => outbox.getSnapshot().entries.length === n, { on: outbox.subscribe, what, timeoutMs: 10_000 })

/** Entries leave the stored list just before `applied` is emitted: wait for the events. */
const applied = (seen: { applied: unknown[] }, n: number, what: string) =>
  waitUntil(() => seen.applied.length >= n, { what, timeoutMs: 10_000 })

const dataOf = (entries: OutboxEntry[]) => entries.map((e) => (e.kind === 'publish' ? e.publish.data : undefined))

describe('createRealtime(source, { outbox })', () => {
  it('publishes made while the client cannot connect survive two reloads, then arrive once each, in order per channel', async () => {
    const storage = memoryStorage()
    const key = 'user:kim:reload'
    const watcher = client(emu(), { subject: 'watcher' })
    const a = collect(watcher, 'o:a')
    const b = collect(watcher, 'o:b')
    await Promise.all([untilSubscribed(watcher.channel('o:a')), untilSubscribed(watcher.channel('o:b'))])

    // Page 1: the token endpoint is down; the client keeps trying, the publishes are stored.
    const first = await page(key, storage, { down: () => true })
    const calls = [
      ...Array.from({ length: 10 }, (_, i) => first.rt.channel('o:a').publish('n', i)),
      ...Array.from({ length: 5 }, (_, i) => first.rt.channel('o:b').publish('n', i)),
    ]
    calls.forEach((p) => p.catch(() => undefined)) // their page goes away before they settle
    await held(first.outbox, 15, '15 publishes held')
    await waitUntil(() => first.rt.lastError?.code === 'token_endpoint_unavailable', { what: 'token endpoint down' })
    expect(first.rt.state).not.toBe('connected')
    first.outbox.stop()
    first.rt.close() // a publish it was sending fails `closed`: kept, not refused
    await expect(calls[0]).rejects.toMatchObject({ code: 'outbox_stopped' })

    // Page 2: a client that never connects (autoConnect: false); everything is still there.
    const second = await page(key, storage, { options: { autoConnect: false } })
    expect(second.seen.restored).toEqual([15])
    expect(dataOf([...second.outbox.getSnapshot().entries])).toEqual([...Array(10).keys(), ...Array(5).keys()])
    second.outbox.stop()
    second.rt.close()

    // Page 3: it can connect: each publish goes as soon as the client exists, once, in order.
    const third = await page(key, storage)
    expect(third.seen.restored).toEqual([15])
    await applied(third.seen, 15, 'every publish applied')
    await Promise.all([a.count(10), b.count(5)])
    expect(a.messages.map((m) => m.data)).toEqual([...Array(10).keys()])
    expect(b.messages.map((m) => m.data)).toEqual([...Array(5).keys()])
    expect(third.seen.applied).toHaveLength(15)
    expect(third.seen.replayed).toBe(15)
    for (const ack of third.seen.results) expect(ack).toMatchObject({ offset: expect.any(Number), duplicate: false })
    // Exactly once: history holds each one, nothing twice.
    expect((await history(watcher.channel('o:a'))).messages.map((m) => m.data)).toEqual([...Array(10).keys()])
    expect((await history(watcher.channel('o:b'))).messages.map((m) => m.data)).toEqual([...Array(5).keys()])
    expect(third.outbox.getSnapshot().status).toBe('idle')
    third.outbox.stop()
  })

  it('a publish whose ack was lost (the page reloaded first) is sent again with its key and stored once', async () => {
    const storage = memoryStorage()
    const key = 'user:kim:lost-ack'
    const first = await page(key, storage, { subject: 'lost' })
    first.rt.connect()
    await untilState(first.rt, 'connected')
    emu().realtime.delayFrames(60_000) // the service stores it, the ack never reaches this page
    try {
      const acked = emu().realtime.waitFor((e) => e?.type === 'out' && e.frame.type === 'ack')
      first.rt
        .channel('o:lost')
        .publish('n', 'once')
        .catch(() => undefined)
      await acked
      first.outbox.stop()
      first.rt.close()
    } finally {
      emu().realtime.delayFrames(0)
    }
    const second = await page(key, storage, { subject: 'lost' })
    expect(second.seen.restored).toEqual([1])
    await applied(second.seen, 1, 'the publish applied')
    expect(second.seen.results).toEqual([expect.objectContaining({ duplicate: true })])
    const reader = client(emu(), { subject: 'reader' })
    expect((await history(reader.channel('o:lost'))).messages.map((m) => m.data)).toEqual(['once'])
    second.outbox.stop()
  })

  it('a publish the service refuses rejects its caller, is emitted as refused and dropped; the next one goes', async () => {
    const { outbox, rt, seen } = await page('user:kim:refused', memoryStorage(), {
      subject: 'narrow',
      scope: ['realtime:subscribe:*', 'realtime:publish:ok:*'],
    })
    const refused: { entry: OutboxEntry; error: unknown }[] = []
    outbox.on('refused', (r) => refused.push(r))
    const bad = rt.channel('no:way').publish('n', 'forbidden')
    const good = rt.channel('ok:go').publish('n', 'after')
    const error = await bad.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(isRealtimeError(error)).toBe(true)
    expect(error).toMatchObject({ code: 'forbidden', temporary: false })
    expect(refused).toEqual([{ entry: expect.objectContaining({ lane: 'realtime no:way' }), error }])
    expect(await good).toMatchObject({ duplicate: false })
    expect(seen.applied.map((e) => e.lane)).toEqual(['realtime ok:go'])
    expect(outbox.getSnapshot().entries).toEqual([])
    outbox.stop()
  })

  it('bad input is refused at the call and never stored, one too large when it would be sent; a caller-given key is the publish key', async () => {
    const { outbox, rt, seen } = await page('user:kim:input', memoryStorage())
    let queued = 0
    outbox.on('queued', () => queued++)
    const ch = rt.channel('o:input')
    const circular: Record<string, unknown> = {}
    circular.self = circular
    const refusals = await Promise.all(
      [
        () => ch.publish('', 1),
        () => ch.publish('n', circular),
        () => ch.publish('n', 1, { idempotencyKey: 'has a space' }),
        () => ch.publish('n', 1, { idempotencyKey: '' }),
      ].map((call) =>
        call().then(
          () => undefined,
          (e: unknown) => e,
        ),
      ),
    )
    for (const e of refusals) expect(isValidationError(e), String(e)).toBe(true)
    expect(queued).toBe(0)
    // Over the service's frame limit: refused when it would be sent (the limit is the connection's), and dropped.
    const tooBig = await ch.publish('n', 'x'.repeat(70_000)).catch((e: RealtimeError) => e)
    expect(tooBig).toMatchObject({ code: 'message_too_large', temporary: false })
    expect(outbox.getSnapshot().entries).toEqual([])

    const one: PublishAck = await ch.publish('n', 'keyed', { idempotencyKey: 'order-42' })
    const again = await ch.publish('n', 'keyed', { idempotencyKey: 'order-42' })
    expect(one.duplicate).toBe(false)
    expect(again).toMatchObject({ duplicate: true, offset: one.offset, messageId: one.messageId })
    expect(seen.applied.map((e) => e.idempotencyKey)).toEqual(['order-42', 'order-42'])
    expect((await history(ch)).messages.map((m) => m.data)).toEqual(['keyed'])
    outbox.stop()
  })

  it('without an outbox, a caller-given key is used and checked too', async () => {
    const rt = client(emu())
    const ch = rt.channel('o:plain')
    const bad = await ch.publish('n', 1, { idempotencyKey: 'x'.repeat(256) }).catch((e: unknown) => e)
    expect(isValidationError(bad)).toBe(true)
    const one = await ch.publish('n', 'plain', { idempotencyKey: 'plain-1' })
    expect(await ch.publish('n', 'plain', { idempotencyKey: 'plain-1' })).toMatchObject({
      duplicate: true,
      offset: one.offset,
    })
  })

  it('a REST write and a publish share one outbox: both are stored, then applied', async () => {
    const url = emu().url
    const outbox = durableOutbox({
      key: 'user:kim:shared',
      storage: memoryStorage(),
      retry: { baseMs: 20, maxMs: 100 },
    })
    const applied: OutboxEntry[] = []
    outbox.on('applied', ({ entry }) => applied.push(entry))
    const rest = createClient({ baseUrl: url, auth: { url: `${url}/dev/token` }, outbox })
    const rt = createRealtime({ client: rest }, { WebSocket, outbox, backoff: { baseMs: 20, capMs: 200 } })
    try {
      const [conversation] = (await rest.support.conversations.list({ limit: 1 })).data
      const [thread, ack] = await Promise.all([
        rest.support.conversations.reply(conversation!.id, { text: 'stored, then sent' }),
        rt.channel('o:shared').publish('n', 'stored too'),
      ])
      expect(thread.text).toBe('stored, then sent')
      expect(ack).toMatchObject({ duplicate: false })
      expect(applied.map((e) => e.kind).sort()).toEqual(['publish', 'rest'])
      expect(outbox.getSnapshot().entries).toEqual([])
    } finally {
      outbox.stop()
      rt.close()
    }
  })
})
