import { until } from '../../../../test/utils/wait.js'
import { describe, expect, it } from 'vitest'
import { client, collect, untilSubscribed, useEmulator } from './helpers.js'
import { history } from '../history.js'

const emu = useEmulator()

describe('subscribe, publish, ack', () => {
  it('round-trips a message with an ack and the publisher receives its own message', async () => {
    const a = client(emu())
    const b = client(emu(), { subject: 'user_2' })
    const got = collect(b, 'chat:lobby')
    const own = collect(a, 'chat:lobby')
    await untilSubscribed(b.channel('chat:lobby'))
    await untilSubscribed(a.channel('chat:lobby'))
    const ack = await a.channel('chat:lobby').publish('message', { text: 'hi' })
    expect(ack).toMatchObject({ offset: 1, duplicate: false })
    expect(ack.messageId).toMatch(/./)
    await got.count(1)
    await own.count(1)
    expect(got.messages[0]).toMatchObject({
      channel: 'chat:lobby',
      event: 'message',
      data: { text: 'hi' },
      offset: 1,
      epoch: ack.epoch,
      clientId: 'user_1',
    })
    expect(a.connectionId).toMatch(/^conn_/)
    expect(a.state).toBe('connected')
  })

  it('a channel released and re-subscribed in the same tick keeps receiving (not stuck in subscribing)', async () => {
    const a = client(emu())
    const ch = a.channel('chat:again')
    const off = ch.subscribe(() => {})
    await untilSubscribed(ch)
    const got: unknown[] = []
    off()
    ch.subscribe((m) => got.push(m.data)) // same tick: still subscribed on the server
    await untilSubscribed(ch)
    await ch.publish('message', 'after')
    await until(
      (cb) => ch.subscribe(cb),
      () => got.length === 1,
    )
    expect(got).toEqual(['after'])
  })

  it('filters by event name and detaches when the last listener leaves', async () => {
    const a = client(emu())
    const ch = a.channel('chat:events')
    const typing: unknown[] = []
    const all: unknown[] = []
    const offTyping = ch.subscribe('typing', (m) => typing.push(m.data))
    const offAll = ch.subscribe((m) => all.push(m.data))
    await untilSubscribed(ch)
    await ch.publish('typing', 1)
    await ch.publish('message', 2)
    await until(
      (cb) => ch.subscribe(cb),
      () => all.length === 2,
    )
    expect(typing).toEqual([1])
    const before = emu().realtime.stats.framesIn.unsubscribe ?? 0
    offTyping()
    offAll()
    expect(ch.state).toBe('unsubscribed')
    await emu().realtime.waitFor(() => (emu().realtime.stats.framesIn.unsubscribe ?? 0) === before + 1)
  })

  it('multiplexes 200 channels on one socket with one subscribe frame', async () => {
    const stats = emu().realtime.stats
    const subscribeFrames = stats.framesIn.subscribe ?? 0
    const connections = stats.connections.total
    const a = client(emu())
    const names = Array.from({ length: 200 }, (_, i) => `room:${i}`)
    const channels = names.map((n) => a.channel(n))
    for (const ch of channels) ch.subscribe(() => {})
    await Promise.all(channels.map((ch) => untilSubscribed(ch)))
    expect(stats.framesIn.subscribe).toBe(subscribeFrames + 1)
    expect(stats.connections.total).toBe(connections + 1)
    const acks = await Promise.all(channels.slice(0, 20).map((ch, i) => ch.publish('n', i)))
    expect(acks.every((ack) => ack.offset === 1)).toBe(true)
  })

  it('history returns retained messages; invalid input is refused without a frame', async () => {
    const a = client(emu())
    const ch = a.channel('chat:history')
    for (let i = 1; i <= 5; i++) await ch.publish('n', i)
    const page = await history(ch, { limit: 3 })
    expect(page.messages.map((m) => m.data)).toEqual([3, 4, 5])
    expect(page.offset).toBe(5)
    const since = await history(ch, { since: { epoch: page.epoch, offset: 3 } })
    expect(since.messages.map((m) => m.offset)).toEqual([4, 5])
    expect(since.complete).toBe(true)
    await expect(ch.publish('', 1)).rejects.toMatchObject({ name: 'ValidationError' })
    await expect(ch.publish('n', 'x'.repeat(70_000))).rejects.toMatchObject({ code: 'message_too_large' })
    expect(() => a.channel('bad name!')).toThrow(/channel/)
    await expect(a.channel('secret:x').publish('n', 1)).resolves.toMatchObject({ offset: 1 })
  })

  it('a channel the token may not read fails alone; the others work', async () => {
    const a = client(emu(), { scope: ['realtime:subscribe:chat:*', 'realtime:publish:chat:*'] })
    const errors: string[] = []
    a.channel('admin:x').on('error', (e) => errors.push(e.code))
    a.channel('admin:x').subscribe(() => {})
    const ok = collect(a, 'chat:ok')
    await until(
      (cb) => a.channel('admin:x').on('state', cb),
      () => a.channel('admin:x').state === 'failed',
    )
    expect(errors).toEqual(['forbidden'])
    await untilSubscribed(a.channel('chat:ok'))
    await a.channel('chat:ok').publish('n', 1)
    await ok.count(1)
  })
})
