// A minimal server speaking just enough of docs/protocol.md to stream N small messages after the
// handshake and subscribe, in its own process: the benchmark then measures the client's receive
// path, not the hub. Prints its port, then serves until killed.
import { WebSocketServer } from 'ws'

const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
wss.on('connection', (socket, req) => {
  // Parameters in the path (/n/<count>/c/<channels>/ws), since a client URL must end in /ws.
  const [, , n, , c] = new URL(req.url, 'http://x').pathname.split('/')
  const total = Number(n) || 10000
  const channels = Number(c) || 1
  const names = Array.from({ length: channels }, (_, i) => `bench:${i}`)
  const offsets = new Map(names.map((n) => [n, 0]))
  const blast = () => {
    // Pre-serialised, small JSON messages, round-robin over the channels; backpressure-aware.
    let sent = 0
    const pump = () => {
      while (sent < total) {
        const channel = names[sent % channels]
        const offset = offsets.get(channel) + 1
        offsets.set(channel, offset)
        socket.send(`{"type":"message","channel":"${channel}","event":"tick","data":{"n":${sent},"text":"hello"},"offset":${offset},"epoch":"ep_1","messageId":"m${sent}","ts":0}`)
        sent++
        if (socket.bufferedAmount > 1 << 20) return setImmediate(pump)
      }
    }
    pump()
  }
  socket.on('message', (raw) => {
    const frame = JSON.parse(String(raw))
    if (frame.type === 'connect') socket.send(JSON.stringify({ type: 'connected', id: frame.id, connectionId: 'c1', heartbeatMs: 60000, maxMessageBytes: 65536, expiresIn: 3600, resumed: false }))
    else if (frame.type === 'subscribe') {
      socket.send(JSON.stringify({ type: 'subscribed', id: frame.id, channels: frame.channels.map((c) => ({ channel: c.channel, epoch: 'ep_1', offset: 0, recovered: true, missed: [] })) }))
      const subscribed = new Set(frame.channels.map((c) => c.channel))
      if (names.every((n) => subscribed.has(n))) blast()
    } else if (frame.type === 'raw') blast()
  })
})
wss.on('listening', () => process.stdout.write(`${JSON.stringify({ port: wss.address().port })}\n`))
