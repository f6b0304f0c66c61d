// Minimal servers that stream N small JSON messages, in their own process, so the benchmark
// measures the client's receive path, not the hub:
// - a `ws` server speaking just enough of docs/protocol.md (handshake, subscribe) for @tandem/realtime
//   and for a raw client;
// - a real socket.io server emitting the same payloads, for socket.io-client.
// Prints { port, socketIoPort } as one JSON line, then serves until killed.
import { createServer } from 'node:http'
import { Server as SocketIoServer } from 'socket.io'
import { MAX_MESSAGE_BYTES } from '@tandem/contract'
import { WebSocketServer } from 'ws'

const HIGH_WATER = 1 << 20
const frameOf = (channel, n, offset) =>
  `{"type":"message","channel":"${channel}","event":"tick","data":{"n":${n},"text":"hello"},"offset":${offset},"epoch":"ep_1","messageId":"m${n}","ts":0}`

/** Round-robin over the channels, pre-serialised, pausing while the socket's buffer is full. */
function pump(total, channels, send, buffered) {
  const names = Array.from({ length: channels }, (_, i) => `bench:${i}`)
  const offsets = new Array(channels).fill(0)
  let sent = 0
  const step = () => {
    while (sent < total) {
      const c = sent % channels
      send(names[c], sent, ++offsets[c])
      sent++
      if (buffered() > HIGH_WATER) return setImmediate(step)
    }
  }
  step()
}

const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
wss.on('connection', (socket, req) => {
  // Parameters in the path (/n/<count>/c/<channels>/ws), since a client URL must end in /ws.
  const [, , n, , c] = new URL(req.url, 'http://x').pathname.split('/')
  const total = Number(n) || 10000
  const channels = Number(c) || 1
  const blast = () =>
    pump(
      total,
      channels,
      (ch, i, off) => socket.send(frameOf(ch, i, off)),
      () => socket.bufferedAmount,
    )
  socket.on('message', (raw) => {
    const frame = JSON.parse(String(raw))
    if (frame.type === 'connect')
      socket.send(
        JSON.stringify({
          type: 'connected',
          id: frame.id,
          connectionId: 'c1',
          heartbeatMs: 60000,
          maxMessageBytes: MAX_MESSAGE_BYTES,
          expiresIn: 3600,
          resumed: false,
        }),
      )
    else if (frame.type === 'subscribe') {
      socket.send(
        JSON.stringify({
          type: 'subscribed',
          id: frame.id,
          channels: frame.channels.map((c) => ({
            channel: c.channel,
            epoch: 'ep_1',
            offset: 0,
            recovered: true,
            missed: [],
          })),
        }),
      )
      const subscribed = new Set(frame.channels.map((c) => c.channel))
      if (Array.from({ length: channels }, (_, i) => `bench:${i}`).every((n) => subscribed.has(n))) blast()
    } else if (frame.type === 'raw') blast()
  })
})

// socket.io: the client asks with `blast` { n }; the same message objects go out as `message` events.
const http = createServer()
const io = new SocketIoServer(http, { transports: ['websocket'], serveClient: false })
io.on('connection', (socket) => {
  socket.on('blast', ({ n }) => {
    const ws = socket.conn.transport.socket
    pump(
      Number(n) || 10000,
      1,
      (channel, i, offset) =>
        socket.emit('message', {
          type: 'message',
          channel,
          event: 'tick',
          data: { n: i, text: 'hello' },
          offset,
          epoch: 'ep_1',
          messageId: `m${i}`,
          ts: 0,
        }),
      () => ws?.bufferedAmount ?? 0,
    )
  })
})

await Promise.all([new Promise((r) => wss.on('listening', r)), new Promise((r) => http.listen(0, '127.0.0.1', r))])
process.stdout.write(`${JSON.stringify({ port: wss.address().port, socketIoPort: http.address().port })}\n`)
