import { describe, expectTypeOf, it } from 'vitest'
import {
  createRealtime,
  type Channel,
  type ConnectionState,
  type HistoryPage,
  type Message,
  type PublishAck,
  type Realtime,
  type StateChange,
} from '../index.js'
import { watchFrames, type FrameEvent } from '../debug.js'
import { history } from '../history.js'

declare const auth: Parameters<typeof createRealtime>[0]

describe('@tandem/realtime types', () => {
  it('the client and its channels', () => {
    const rt = createRealtime(auth)
    expectTypeOf(rt).toEqualTypeOf<Realtime>()
    expectTypeOf(rt.state).toEqualTypeOf<ConnectionState>()
    expectTypeOf<ConnectionState>().toEqualTypeOf<
      'idle' | 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'closed' | 'failed'
    >()
    const ch = rt.channel('chat:lobby')
    expectTypeOf(ch).toEqualTypeOf<Channel>()
    ch.subscribe((m) => expectTypeOf(m).toEqualTypeOf<Message>())
    ch.subscribe<{ text: string }>('message', (m) => expectTypeOf(m.data).toEqualTypeOf<{ text: string }>())
    expectTypeOf(ch.publish('message', {})).resolves.toEqualTypeOf<PublishAck>()
    expectTypeOf(history(ch, { limit: 10 })).resolves.toEqualTypeOf<HistoryPage>()
    rt.on('state', (change) => expectTypeOf(change).toEqualTypeOf<StateChange>())
  })

  it('frames only through watchFrames (@tandem/realtime/debug): no public event hands out a raw frame', () => {
    const rt = createRealtime(auth)
    // @ts-expect-error: `frame` is no event of the client
    rt.on('frame', () => {})
    const stop = watchFrames(rt, (e) => expectTypeOf(e).toEqualTypeOf<FrameEvent>())
    expectTypeOf(stop).toEqualTypeOf<() => void>()
  })
})
