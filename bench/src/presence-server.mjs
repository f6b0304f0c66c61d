// A `ws` server for the presence bench, in its own process: speaks just enough of docs/protocol.md
// (handshake, subscribe), and answers `presence.get` with N members, then sends N `enter` events
// right behind the answer (pre-serialised, paced by the socket's buffer). Any channel, any token.
// Prints { port } as one JSON line, then serves until killed.
import { MAX_MESSAGE_BYTES } from '@tandem/contract'
import { WebSocketServer } from 'ws'

const HIGH_WATER = 1 << 20
export const memberOf = (i) => ({ clientId: `user_${i}`, connectionId: `conn_${i}`, data: { name: `User ${i}` } })

const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
wss.on('connection', (socket, req) => {
  // N in the path (/n/<count>/ws), since a client URL must end in /ws.
  const n = Number(new URL(req.url, 'http://x').pathname.split('/')[2]) || 10_000
  const send = (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  socket.on('message', (raw) => {
    const frame = JSON.parse(String(raw))
    if (frame.type === 'connect')
      send({
        type: 'connected',
        id: frame.id,
        connectionId: 'bench',
        heartbeatMs: 60_000,
        maxMessageBytes: MAX_MESSAGE_BYTES,
        expiresIn: 3600,
        resumed: false,
      })
    else if (frame.type === 'subscribe')
      send({
        type: 'subscribed',
        id: frame.id,
        channels: frame.channels.map(({ channel }) => ({
          channel,
          epoch: 'ep_1',
          offset: 0,
          recovered: true,
          missed: [],
        })),
      })
    else if (frame.type === 'presence.get') {
      const members = Array.from({ length: n }, (_, i) => memberOf(i))
      send({ type: 'presence.members', id: frame.id, channel: frame.channel, members })
      let i = n
      const step = () => {
        while (i < 2 * n) {
          const member = JSON.stringify(memberOf(i++))
          send(
            `{"type":"presence.event","channel":${JSON.stringify(frame.channel)},"action":"enter","member":${member},"ts":0}`,
          )
          if (socket.bufferedAmount > HIGH_WATER) return setImmediate(step)
        }
      }
      step()
    }
  })
})
await new Promise((resolve) => wss.on('listening', resolve))
process.stdout.write(`${JSON.stringify({ port: wss.address().port })}\n`)
