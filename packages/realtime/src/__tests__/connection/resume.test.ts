import { until } from '../../../../../test/utils/wait.js'
import { describe, expect, it } from 'vitest'
import type { Discontinuity, StateChange } from '../../types.js'
import { client, collect, untilState, untilSubscribed, useEmulator } from '../helpers.js'

const emu = useEmulator()

describe('resume after a dropped socket', () => {
  for (const raw of [false, true]) {
    it(`every channel resumes with no loss, no duplicate, order kept (${raw ? 'TCP destroyed' : 'close 4201'})`, async () => {
      const pub = client(emu(), { subject: 'pub' })
      const sub = client(emu(), { subject: `sub_${raw}` })
      const names = ['a', 'b', 'c', 'd', 'e'].map((n) => `drop:${raw}:${n}`)
      const got = names.map((n) => collect(sub, n))
      await Promise.all(names.map((n) => untilSubscribed(sub.channel(n))))
      const states: StateChange[] = []
      sub.on('state', (s) => states.push(s))
      const per = 40
      const publishing = (async () => {
        for (let i = 1; i <= per; i++) {
          await Promise.all(names.map((n) => pub.channel(n).publish('n', i)))
          // Drop the subscriber mid-stream.
          if (i === 10) emu().realtime.dropConnections({ subject: `sub_${raw}`, raw })
        }
      })()
      await publishing
      await Promise.all(got.map((g) => g.count(per)))
      for (const g of got) {
        expect(g.messages.map((m) => m.data)).toEqual(Array.from({ length: per }, (_, i) => i + 1))
        expect(g.messages.map((m) => m.offset)).toEqual(Array.from({ length: per }, (_, i) => i + 1))
      }
      expect(states.map((s) => s.current)).toEqual(['reconnecting', 'connected'])
      expect(states[0]).toMatchObject({ reason: raw ? 'close_1006' : 'connection_dropped' })
      expect(typeof states[0]!.retryInMs).toBe('number')
      expect(pub.state).toBe('connected')
    })
  }
})

describe('discontinuity: never a silent gap', () => {
  it('history trimmed while away → history_expired, then the retained messages in order', async () => {
    const pub = client(emu(), { subject: 'pub' })
    const sub = client(emu(), { subject: 'sub_trim' })
    const ch = sub.channel('trim:1')
    const got = collect(sub, 'trim:1')
    const gaps: Discontinuity[] = []
    const order: string[] = []
    ch.on('discontinuity', (d) => (gaps.push(d), order.push('gap')))
    ch.subscribe((m) => order.push(`m${m.offset}`))
    await untilSubscribed(ch)
    const first = await pub.channel('trim:1').publish('n', 1)
    await got.count(1)
    sub.close()
    for (let i = 2; i <= 10; i++) await pub.channel('trim:1').publish('n', i)
    emu().realtime.trimHistory('trim:1', 3)
    sub.connect()
    await got.count(4)
    expect(gaps).toEqual([
      {
        channel: 'trim:1',
        reason: 'history_expired',
        since: { epoch: first.epoch, offset: 1 },
        resumedAt: { epoch: first.epoch, offset: 7 },
      },
    ])
    expect(got.messages.map((m) => m.offset)).toEqual([1, 8, 9, 10])
    expect(order).toEqual(['m1', 'gap', 'm8', 'm9', 'm10'])
  })

  it('epoch changed (server restart) → epoch_changed, then live messages of the new epoch', async () => {
    const pub = client(emu(), { subject: 'pub' })
    const sub = client(emu(), { subject: 'sub_epoch' })
    const ch = sub.channel('epoch:1')
    const got = collect(sub, 'epoch:1')
    const gaps: Discontinuity[] = []
    ch.on('discontinuity', (d) => gaps.push(d))
    await untilSubscribed(ch)
    const old = await pub.channel('epoch:1').publish('n', 1)
    await got.count(1)
    emu().realtime.restart() // new epoch everywhere, every socket closed with 4200
    await until(
      (cb) => ch.on('discontinuity', cb),
      () => gaps.length === 1,
    )
    expect(gaps[0]).toMatchObject({
      reason: 'epoch_changed',
      since: { epoch: old.epoch, offset: 1 },
      resumedAt: { offset: 0 },
    })
    expect(gaps[0]!.resumedAt.epoch).not.toBe(old.epoch)
    await untilState(pub, 'connected')
    await untilSubscribed(ch)
    const next = await pub.channel('epoch:1').publish('n', 2)
    expect(next.offset).toBe(1)
    await got.count(2)
    expect(got.messages.map((m) => [m.data, m.offset])).toEqual([
      [1, 1],
      [2, 1],
    ])
  })
})
