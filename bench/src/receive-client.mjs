// One receive run in a fresh process, so each client's peak RSS is its own:
//   node receive-client.mjs <raw|partysocket|tandem|socketio> <port> <messages> <channels>
// Prints { rate (msgs/s), maxRssMiB } as one JSON line. Every client's clock starts before it
// connects, so each pays for its own handshake (Tandem's includes its token and subscribe).
import { createRealtime } from '@tandem/realtime'
import { createNanoEvents } from 'nanoevents'
import ReconnectingWebSocket from 'partysocket/ws'
import { io } from 'socket.io-client'
import WebSocket from 'ws'

const [kind, port, n, c] = process.argv.slice(2)
const N = Number(n)
const channels = Number(c)
const urlFor = (n) => `ws://127.0.0.1:${port}/n/${n}/c/${channels}/ws`

const clients = {
  raw: (N) =>
    new Promise((resolve, reject) => {
      const started = performance.now()
      const ws = new WebSocket(urlFor(N))
      let got = 0
      ws.on('open', () => ws.send('{"type":"raw"}'))
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data))
        if (frame.type === 'message' && ++got === N) {
          const ms = performance.now() - started
          ws.close()
          resolve(N / (ms / 1000))
        }
      })
      ws.on('error', reject)
    }),
  // The design card's floor: what Tandem is built on, with nothing of Tandem's (no handshake, resume, checks).
  partysocket: (N) =>
    new Promise((resolve) => {
      const started = performance.now()
      const events = createNanoEvents()
      const rws = new ReconnectingWebSocket(urlFor(N), undefined, { WebSocket, maxRetries: 0 })
      let got = 0
      const onMessage = () => {
        if (++got === N) {
          const ms = performance.now() - started
          rws.close()
          resolve(N / (ms / 1000))
        }
      }
      for (let i = 0; i < channels; i++) events.on(`bench:${i}`, onMessage)
      rws.addEventListener('open', () => rws.send('{"type":"raw"}'))
      rws.addEventListener('message', (e) => {
        const frame = JSON.parse(e.data)
        if (frame.type === 'message') events.emit(frame.channel, frame)
      })
    }),
  tandem: (N) =>
    new Promise((resolve) => {
      const rt = createRealtime(
        { auth: { fetchToken: async () => ({ token: 'bench', expiresIn: 3600 }) }, url: urlFor(N) },
        { WebSocket },
      )
      let got = 0
      const started = performance.now()
      const onMessage = () => {
        if (++got === N) {
          const ms = performance.now() - started
          rt.close()
          resolve(N / (ms / 1000))
        }
      }
      for (let i = 0; i < channels; i++) rt.channel(`bench:${i}`).subscribe(onMessage)
    }),
  socketio: (N) =>
    new Promise((resolve, reject) => {
      const started = performance.now()
      const socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false })
      let got = 0
      socket.on('message', () => {
        if (++got === N) {
          const ms = performance.now() - started
          socket.close()
          resolve(N / (ms / 1000))
        }
      })
      socket.on('connect', () => socket.emit('blast', { n: N }))
      socket.on('connect_error', reject)
    }),
}

const timer = setTimeout(() => {
  console.error(`${kind}: no result after 60 s`)
  process.exit(1)
}, 60_000)
// A warm-up run first, on its own connection: the figure is steady-state throughput (JIT warm),
// as in a long-lived page; peak RSS still covers both runs.
await clients[kind](Math.ceil(N / 5))
const rate = await clients[kind](N)
clearTimeout(timer)
process.stdout.write(`${JSON.stringify({ rate, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`)
process.exit(0)
