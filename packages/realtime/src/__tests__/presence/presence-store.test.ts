// A presence store whose first sync fails (the service answers presence.get with an error) does not
// stay empty until some later resubscription: it tries again, and shows the members. Events sent
// right behind the answer are applied, not dropped. Against a hand-written server (the emulator
// never fails presence.get, nor can it be told to send events in the same burst as an answer).
import { until } from '../../../../../test/utils/wait.js'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { presenceStore } from '../../presence-entry.js'
import { hostileClient, hostileServer, subscribedAll, type Frame } from '../hostile-server.js'

const MEMBER = { clientId: 'ada', connectionId: 'conn_x', data: { name: 'Ada' } }

describe('presenceStore', () => {
  it('a failed sync is retried: the members show, not a silent empty list', async () => {
    const gets: Frame[] = []
    const server = await hostileServer({
      request(peer, frame) {
        if (frame.type === 'subscribe') subscribedAll(peer, frame)
        else if (frame.type === 'presence.get') {
          gets.push(frame)
          if (gets.length === 1)
            peer.send({ type: 'error', id: frame.id, error: { code: 'internal_error', message: 'try again' } })
          else peer.send({ type: 'presence.members', id: frame.id, channel: frame.channel, members: [MEMBER] })
        }
      },
    })
    const rt = hostileClient(server)
    const store = presenceStore(rt.channel('room:1'))
    let changes = 0
    const off = store.subscribe(() => changes++)
    await until(
      (cb) => store.subscribe(cb),
      () => store.getSnapshot().length === 1,
      5_000,
      `members after a failed sync (gets: ${gets.length})`,
    )
    expect(gets).toHaveLength(2) // one failure, one retry (1 s later), no more
    expect(store.getSnapshot()).toEqual([MEMBER])
    expect(changes).toBe(1)
    off()
  })

  it("a failed sync's retry waits the one backoff's jittered delay (stores of many tabs do not retry together)", async () => {
    let gets = 0
    const server = await hostileServer({
      request(peer, frame) {
        if (frame.type === 'subscribe') subscribedAll(peer, frame)
        else if (frame.type === 'presence.get' && ++gets === 1)
          peer.send({ type: 'error', id: frame.id, error: { code: 'internal_error', message: 'try again' } })
        else if (frame.type === 'presence.get')
          peer.send({ type: 'presence.members', id: frame.id, channel: frame.channel, members: [MEMBER] })
      },
    })
    const rt = hostileClient(server)
    onTestFinished(() => void vi.restoreAllMocks())
    const timers = vi.spyOn(globalThis, 'setTimeout')
    // The lowest draw: full jitter with a floor of half waits 500 ms for the first retry (1 s unjittered).
    vi.spyOn(Math, 'random').mockReturnValue(0)
    const store = presenceStore(rt.channel('room:2'))
    const off = store.subscribe(() => {})
    await until(
      (cb) => store.subscribe(cb),
      () => store.getSnapshot().length === 1,
      5_000,
      'members after a failed sync',
    )
    const retries = timers.mock.calls.filter(([fn]) => (fn as { name?: string }).name === 'sync')
    expect(retries.map(([, ms]) => ms)).toEqual([500])
    off()
  })

  it('events right behind the answer are applied, not dropped while the answer settles', async () => {
    const bob = { clientId: 'bob', connectionId: 'conn_y', data: null }
    const server = await hostileServer({
      request(peer, frame) {
        if (frame.type === 'subscribe') subscribedAll(peer, frame)
        else if (frame.type === 'presence.get') {
          peer.send({ type: 'presence.members', id: frame.id, channel: frame.channel, members: [MEMBER] })
          // In the same burst: the client reads these before its reply's promise settles.
          const event = (action: string, member: object) =>
            peer.send({ type: 'presence.event', channel: frame.channel, action, member, ts: 1 })
          event('enter', bob)
          event('update', { ...MEMBER, data: { name: 'Ada L.' } })
          event('leave', bob)
          event('enter', bob)
        }
      },
    })
    const rt = hostileClient(server)
    const store = presenceStore(rt.channel('room:1'))
    let changes = 0
    const off = store.subscribe(() => changes++)
    const want = [{ ...MEMBER, data: { name: 'Ada L.' } }, bob]
    await until(
      (cb) => store.subscribe(cb),
      () => JSON.stringify(store.getSnapshot()) === JSON.stringify(want),
      5_000,
      `the members after the events (have ${JSON.stringify(store.getSnapshot())})`,
    )
    expect(changes).toBe(1) // one frame's worth
    off()
  })
})
