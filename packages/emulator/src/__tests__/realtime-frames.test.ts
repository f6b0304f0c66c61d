// src/realtime/frames.ts: whatever a client sends, malformed or not, becomes an error reply and
// never a crash or a close (once connected).
import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { useEmulator } from './helpers.js'
import { TestSocket, type Frame, type Outgoing } from './realtime-helpers.js'

const emu = useEmulator()

describe('robustness', () => {
  it('1,000 malformed frames → errors; the socket and the hub carry on', async () => {
    const { socket: s } = await TestSocket.connect(emu(), await emu().mintToken())
    const bad: (string | Outgoing)[] = [
      'nope',
      '[]',
      '42',
      'null',
      '"str"',
      '{"type":1,"id":1}',
      { id: 2 },
      { type: 'publish' },
      { type: 'zzz', id: 3 },
      { type: 'publish', id: 4, channel: 7 },
      { type: 'subscribe', id: 5, channels: 'x' },
      { type: 'subscribe', id: 6, channels: [null] },
      { type: 'history', id: 7, channel: 'a', limit: 0 },
      { type: 'publish', id: 8, channel: 'a', event: 'e' },
      { type: 'connect', id: 9, token: 'x' },
      { type: '__proto__', id: 10 },
      { type: 'subscribe', id: 11, channels: [{ channel: 'a', since: { epoch: 1 } }] },
    ]
    for (let i = 0; i < 1000; i++) s.send(bad[i % bad.length] as Frame)
    s.ws.send(Buffer.from([1, 2, 3]), { binary: true })
    const pong = await s.request({ type: 'ping' }, 5000)
    expect(pong.type).toBe('pong')
    const errors = s.drain('error')
    expect(errors).toHaveLength(1001)
    expect(errors.every((e) => e.error.code === 'bad_request')).toBe(true)
    const sub = await s.request({ type: 'subscribe', channels: [{ channel: 'still:fine' }] })
    expect(sub.channels[0]!.offset).toBe(0)
    expect((await TestSocket.connect(emu(), await emu().mintToken())).socket.ws.readyState).toBe(WebSocket.OPEN)
  })
})
