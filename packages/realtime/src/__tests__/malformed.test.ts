import { until } from '../../../../test/utils/wait.js'
import type { RealtimeError } from '@tandem/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { createRealtime } from '../index.js'
import { DEFAULTS } from '../defaults.js'
import { collect, untilState, untilSubscribed } from './helpers.js'

// The hub has no control to send garbage, so a raw `ws` server plays a misbehaving service:
// a correct handshake, subscribe and publish, and 1,000 malformed frames in between.
const garbage = [
  'not json {',
  '[]',
  'null',
  '42',
  '"text"',
  '{}',
  '{"type":7}',
  '{"type":"bogus"}',
  '{"type":"message"}',
  '{"type":"message","channel":"c:1","event":"e","offset":"1","epoch":"e","messageId":"m"}',
  '{"type":"ack","offset":1,"epoch":"e","messageId":"m"}',
  '{"type":"connected","id":999}',
  '{"type":"presence.event","channel":"c:1"}',
  '{"type":"error","error":"oops"}',
]

let server: WebSocketServer
let url = ''
beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise((resolve) => server.once('listening', resolve))
  url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/realtime/v1/ws`
  server.on('connection', (ws) => {
    let offset = 0
    ws.on('message', (raw) => {
      const f = JSON.parse(String(raw)) as {
        type: string
        id: number
        channels?: { channel: string }[]
        channel?: string
        event?: string
        data?: unknown
      }
      const send = (o: unknown) => ws.send(JSON.stringify(o))
      if (f.type === 'connect') {
        send({
          type: 'connected',
          id: f.id,
          connectionId: 'conn_fake',
          heartbeatMs: 15_000,
          maxMessageBytes: 65_536,
          expiresIn: 600,
          resumed: false,
        })
        for (let i = 0; i < 998; i++) ws.send(garbage[i % garbage.length]!)
        ws.send(Buffer.from([1, 2, 3])) // binary
        ws.send('x'.repeat(DEFAULTS.maxInboundChars + 1)) // oversized
      } else if (f.type === 'subscribe') {
        send({
          type: 'subscribed',
          id: f.id,
          channels: f.channels!.map((c) => ({
            channel: c.channel,
            epoch: 'ep_1',
            offset,
            recovered: true,
            missed: [],
          })),
        })
      } else if (f.type === 'publish') {
        offset++
        send({
          type: 'ack',
          id: f.id,
          channel: f.channel,
          offset,
          epoch: 'ep_1',
          messageId: `msg_${offset}`,
          duplicate: false,
        })
        send({
          type: 'message',
          channel: f.channel,
          event: f.event,
          data: f.data,
          offset,
          epoch: 'ep_1',
          messageId: `msg_${offset}`,
          clientId: 'u',
          ts: Date.now(),
        })
      }
    })
  })
})
afterAll(async () => {
  for (const c of server.clients) c.terminate()
  await new Promise((resolve) => server.close(resolve))
})

describe('a misbehaving server', () => {
  it('1,000 malformed, unknown, binary or oversized frames → 1,000 error events; the client keeps working', async () => {
    const rt = createRealtime(
      { auth: { fetchToken: async () => ({ token: 'tok', expiresIn: 600 }) }, url },
      { WebSocket },
    )
    const errors: RealtimeError[] = []
    rt.on('error', (e) => errors.push(e))
    const got = collect(rt, 'c:1')
    try {
      await untilSubscribed(rt.channel('c:1'))
      await until(
        (cb) => rt.on('error', cb),
        () => errors.length >= 1000,
        10_000,
        '1000 errors',
      )
      expect(errors).toHaveLength(1000)
      expect(new Set(errors.map((e) => e.code))).toEqual(new Set(['bad_frame', 'unknown_frame', 'frame_too_large']))
      expect(errors.every((e) => e.name === 'RealtimeError')).toBe(true)
      expect(rt.state).toBe('connected')
      await expect(rt.channel('c:1').publish('e', 'still fine')).resolves.toMatchObject({ offset: 1 })
      await got.count(1)
      expect(got.messages[0]).toMatchObject({ data: 'still fine', offset: 1 })
      await untilState(rt, 'connected')
    } finally {
      rt.close()
    }
  })
})
