import { describe, expect, it } from 'vitest'
import { until, waitUntil } from '../../../../../test/utils/wait.js'
import { presence } from '../../presence/presence.js'
import { presenceStore } from '../../presence/presence-store.js'
import { client, untilSubscribed, useEmulator } from '../helpers.js'

// rt.channels(): what the devtools' channels view reads, against the emulator.

const emu = useEmulator()

describe('rt.channels()', () => {
  it('lists the channels the client holds: state, position, message listeners, presence when tracked', async () => {
    const rt = client(emu(), { subject: 'ada' })
    const a = rt.channel('info:a')
    const offAll = a.subscribe(() => {})
    const offNotes = a.subscribe('note', () => {})
    await untilSubscribed(a)
    const ack = await a.publish('note', 1)
    await waitUntil(() => a.position?.offset === ack.offset, { what: 'the publish delivered' })

    const b = rt.channel('info:b')
    const members = presenceStore(b, { schedule: (fn) => (queueMicrotask(fn), () => {}) })
    const offMembers = members.subscribe(() => {})
    await presence(b).enter({ name: 'Ada' })
    await until(members.subscribe, () => members.getSnapshot().length === 1, 5_000, 'Ada among the members')
    rt.channel('info:c') // made, never subscribed

    expect(rt.channels()).toEqual([
      {
        name: 'info:a',
        state: 'subscribed',
        position: { epoch: ack.epoch, offset: ack.offset },
        subscribers: 2,
        presence: undefined,
      },
      {
        name: 'info:b',
        state: 'subscribed',
        position: { epoch: expect.any(String), offset: 0 },
        subscribers: 0, // presence keeps it subscribed; no message listener
        presence: [{ clientId: 'ada', connectionId: rt.connectionId, data: { name: 'Ada' } }],
      },
      { name: 'info:c', state: 'unsubscribed', position: undefined, subscribers: 0, presence: undefined },
    ])

    offAll()
    offAll() // undone twice, counted once
    expect(rt.channels()[0]!.subscribers).toBe(1)
    // Still present, but nothing tracks the members any more.
    offMembers()
    expect(rt.channels()[1]!.presence).toBeUndefined()
    offNotes()
    expect(rt.channels().map((c) => [c.name, c.state, c.subscribers])).toEqual([
      ['info:a', 'unsubscribed', 0],
      ['info:b', 'subscribed', 0],
      ['info:c', 'unsubscribed', 0],
    ])
  })
})
