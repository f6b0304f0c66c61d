import type { RealtimeError } from '@tandem/core'
import { describe, expect, it } from 'vitest'
import { client, collect, untilSubscribed, useEmulator } from '../helpers.js'
import { history } from '../../history.js'

const emu = useEmulator()

describe('the offline queue', () => {
  it('is bounded: the oldest publish is dropped with queue_overflow (promise and error event); the rest go once, in order, after the handshake', async () => {
    const sub = client(emu(), { subject: 'q_sub' })
    const got = collect(sub, 'queue:1')
    await untilSubscribed(sub.channel('queue:1'))
    const a = client(emu(), { subject: 'q_pub' }, { autoConnect: false, maxQueued: 3 })
    const errors: RealtimeError[] = []
    a.on('error', (e) => errors.push(e))
    const ch = a.channel('queue:1')
    const results = [1, 2, 3, 4, 5].map((i) =>
      ch.publish('n', i).then(
        (ack) => ack.offset,
        (e: RealtimeError) => e.code,
      ),
    )
    expect(a.state).toBe('idle')
    a.connect()
    expect(await Promise.all(results)).toEqual(['queue_overflow', 'queue_overflow', 1, 2, 3])
    expect(errors.map((e) => e.code)).toEqual(['queue_overflow', 'queue_overflow'])
    await got.count(3)
    expect(got.messages.map((m) => m.data)).toEqual([3, 4, 5])
  })

  it('a publish whose ack was lost is resent with the same idempotency key and stored once', async () => {
    const sub = client(emu(), { subject: 'dup_sub' })
    const got = collect(sub, 'queue:dup')
    await untilSubscribed(sub.channel('queue:dup'))
    const a = client(emu(), { subject: 'dup_pub' })
    a.connect()
    await new Promise<void>((resolve) => a.on('state', (s) => s.current === 'connected' && resolve()))
    // Drop the socket once the publish is stored, as its ack goes out (so the ack is lost).
    const off = emu().realtime.on((e) => {
      if (e.type === 'out' && e.frame.type === 'ack' && e.connectionId === a.connectionId) {
        off()
        emu().realtime.dropConnections({ subject: 'dup_pub', raw: true })
      }
    })
    const publishes = emu().realtime.stats.framesIn.publish ?? 0
    const ack = await a.channel('queue:dup').publish('n', 'once')
    expect(emu().realtime.stats.framesIn.publish).toBe(publishes + 2)
    expect(ack).toMatchObject({ offset: 1, duplicate: true })
    await got.count(1)
    const again = await history(sub.channel('queue:dup'))
    expect(again.messages.map((m) => m.data)).toEqual(['once'])
  })

  it('a publish that cannot be sent in time is rejected with queue_timeout and leaves the queue; its ack deadline never ran', async () => {
    const a = client(emu(), { subject: 'late' }, { autoConnect: false })
    await expect(a.channel('queue:late').publish('n', 1, { timeoutMs: 10, queueTimeoutMs: 50 })).rejects.toMatchObject({
      code: 'queue_timeout',
      temporary: true,
      message: 'publish not sent within 50 ms',
    })
    a.connect()
    await a.channel('queue:late').publish('n', 2)
    expect((await history(a.channel('queue:late'))).messages.map((m) => m.data)).toEqual([2])
  })

  it('refuses a deadline that is not a number of ms above 0, sending nothing', async () => {
    const a = client(emu(), { subject: 'bad_deadline' }, { autoConnect: false })
    for (const bad of [0, -1, Number.NaN, '5']) {
      await expect(a.channel('queue:bad').publish('n', 1, { queueTimeoutMs: bad as number })).rejects.toMatchObject({
        name: 'ValidationError',
        field: 'queueTimeoutMs',
      })
      await expect(history(a.channel('queue:bad'), { timeoutMs: bad as number })).rejects.toMatchObject({
        name: 'ValidationError',
        field: 'timeoutMs',
      })
    }
    expect(() => client(emu(), { subject: 'bad_client' }, { queueTimeoutMs: -5 })).toThrow(/queueTimeoutMs/)
  })
})
