// Minimal servers that stream N small JSON messages, in their own process, so the benchmark
// measures the client's receive path, not the hub:
// - a `ws` server speaking just enough of docs/protocol.md (handshake, subscribe) for @tandem/realtime
//   and for a raw client;
// - a real socket.io server emitting the same payloads, for socket.io-client.
// Prints { port, socketIoPort } as one JSON line, then serves until killed. `GET /last` on `port`
// answers the last finished blast: { sent, sendRate (msgs/s, first frame to the last one written),
// cpuUs (this server's CPU per message), stalls (times the socket's buffer filled: the client was behind) }.
import { createServer } from 'node:http'
import { Server as SocketIoServer } from 'socket.io'
import { MAX_MESSAGE_BYTES } from '@tandem/contract'
import { WebSocketServer } from 'ws'

const HIGH_WATER = 1 << 20
const frameOf = (channel, n, offset) =>
  `{"type":"message","channel":"${channel}","event":"tick","data":{"n":${n},"text":"hello"},"offset":${offset},"epoch":"ep_1","messageId":"m${n}","ts":0}`

/** The last finished blast, for `GET /last`. */
let last = null

/** Frames written per system call (corked): the server must outrun any client, or it measures itself. */
const BATCH = 256

/**
 * Round-robin over the channels, pre-serialised, pausing while the socket's buffer is full.
 * `send`'s fourth argument, given with the last frame only, is called once that frame is written;
 * `socket`, where there is one, is corked for each batch of frames.
 */
function pump(total, channels, send, buffered, socket) {
  const names = Array.from({ length: channels }, (_, i) => `bench:${i}`)
  const offsets = new Array(channels).fill(0)
  const started = performance.now()
  const cpu = process.cpuUsage()
  let sent = 0
  let stalls = 0
  const written = () => {
    const used = process.cpuUsage(cpu)
    last = {
      sent: total,
      sendRate: total / ((performance.now() - started) / 1000),
      cpuUs: (used.user + used.system) / total,
      stalls,
    }
  }
  const step = () => {
    if (buffered() > HIGH_WATER) return void setImmediate(step) // still full: the client is behind
    while (sent < total) {
      socket?.cork()
      for (let end = Math.min(total, sent + BATCH); sent < end; sent++) {
        const c = sent % channels
        send(names[c], sent, ++offsets[c], sent === total - 1 ? written : undefined)
      }
      socket?.uncork()
      if (buffered() > HIGH_WATER && sent < total) {
        stalls++
        return void setImmediate(step)
      }
    }
  }
  step()
}

const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify(last))
})
const wss = new WebSocketServer({ server })
wss.on('connection', (socket, req) => {
  // Parameters in the path (/n/<count>/c/<channels>/ws), since a client URL must end in /ws.
  const [, , n, , c] = new URL(req.url, 'http://x').pathname.split('/')
  const total = Number(n) || 10000
  const channels = Number(c) || 1
  const blast = () =>
    pump(
      total,
      channels,
      (ch, i, off, written) => socket.send(frameOf(ch, i, off), written && (() => written())),
      () => socket.bufferedAmount,
      socket._socket, // ws's net.Socket: no public way to cork
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
      (channel, i, offset, written) => {
        socket.emit('message', {
          type: 'message',
          channel,
          event: 'tick',
          data: { n: i, text: 'hello' },
          offset,
          epoch: 'ep_1',
          messageId: `m${i}`,
          ts: 0,
        })
        written?.() // queued, not written: socket.io's send has no callback here
      },
      () => ws?.bufferedAmount ?? 0,
    )
  })
})

await Promise.all([
  new Promise((r) => server.listen(0, '127.0.0.1', r)),
  new Promise((r) => http.listen(0, '127.0.0.1', r)),
])
process.stdout.write(`${JSON.stringify({ port: server.address().port, socketIoPort: http.address().port })}\n`)
