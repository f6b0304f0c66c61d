// A presence store whose first sync fails (the service answers presence.get with an error) does not
// stay empty until some later resubscription: it tries again, and shows the members. Against a
// hand-written server (the emulator never fails presence.get).
import { until } from '../../../../test/utils/wait.js'
import { describe, expect, it } from 'vitest'
import { presenceStore } from '../index.js'
import { hostileClient, hostileServer, subscribedAll, type Frame } from './hostile-server.js'

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
})
