// One receive run in a fresh process, so each client's peak RSS is its own:
//   node receive-client.mjs <raw|partysocket|tandem|socketio|relay|tabs> <port> <messages> <channels>
// Prints { rate (msgs/s), cpuUs, maxRssMiB } as one JSON line. Every client's clock starts before
// it connects, so each pays for its own handshake (Tandem's includes its token and subscribe) in
// `rate`. `cpuUs` is this process's CPU time (user + system) per message over the receive window
// alone (from the first message to the last, start-up and connect left out): the client's own
// cost, which a throughput figure shows only when the server is not the bound.
// `relay` and `tabs` are two tabs in this one process (Node's BroadcastChannel, which delivers
// between instances of one name, and a Web Locks stand-in): the leader's socket, the follower's
// messages; the CPU is both tabs'.
import { createRealtime } from '@tandem/realtime'
import { shareAcrossTabs } from '@tandem/realtime/tabs'
import { createNanoEvents } from 'nanoevents'
import ReconnectingWebSocket from 'partysocket/ws'
import { io } from 'socket.io-client'
import WebSocket from 'ws'

const [kind, port, n, c] = process.argv.slice(2)
const N = Number(n)
const channels = Number(c)
const urlFor = (n) => `ws://127.0.0.1:${port}/n/${n}/c/${channels}/ws`

/** Counts messages up to `n` and meters the window; `got()` is true on the last, then `result` is set. */
function meter(n) {
  const started = performance.now()
  let count = 0
  let cpu
  const m = {
    result: undefined,
    got() {
      if (++count === 1) cpu = process.cpuUsage()
      if (count !== n) return false
      const used = process.cpuUsage(cpu)
      m.result = { rate: n / ((performance.now() - started) / 1000), cpuUs: (used.user + used.system) / (n - 1) }
      return true
    },
  }
  return m
}

/** One browser's Web Locks, as far as the tab election uses them: FIFO per name, a queued request aborts. */
function createLocks() {
  const held = new Set()
  const queues = new Map()
  return {
    request(name, { signal } = {}, callback) {
      return new Promise((resolve, reject) => {
        const grant = () => {
          held.add(name)
          Promise.resolve()
            .then(callback)
            .then(resolve, reject)
            .finally(() => {
              held.delete(name)
              queues.get(name)?.shift()?.()
            })
        }
        if (!held.has(name)) return grant()
        const queue = queues.get(name) ?? []
        queues.set(name, queue)
        queue.push(grant)
        signal?.addEventListener('abort', () => {
          const i = queue.indexOf(grant)
          if (i >= 0) queue.splice(i, 1)
          reject(new Error('AbortError'))
        })
      })
    },
  }
}
const locks = createLocks()
let relays = 0

const clients = {
  raw: (N) =>
    new Promise((resolve, reject) => {
      const m = meter(N)
      const ws = new WebSocket(urlFor(N))
      ws.on('open', () => ws.send('{"type":"raw"}'))
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data))
        if (frame.type === 'message' && m.got()) {
          ws.close()
          resolve(m.result)
        }
      })
      ws.on('error', reject)
    }),
  // The design card's floor: what Tandem is built on, with nothing of Tandem's (no handshake, resume, checks).
  partysocket: (N) =>
    new Promise((resolve) => {
      const m = meter(N)
      const events = createNanoEvents()
      const rws = new ReconnectingWebSocket(urlFor(N), undefined, { WebSocket, maxRetries: 0 })
      const onMessage = () => {
        if (m.got()) {
          rws.close()
          resolve(m.result)
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
      const m = meter(N)
      const onMessage = () => {
        if (m.got()) {
          rt.close()
          resolve(m.result)
        }
      }
      for (let i = 0; i < channels; i++) rt.channel(`bench:${i}`).subscribe(onMessage)
    }),
  // The floor of the shared-tab path: the frames as they come, posted on a bare BroadcastChannel by
  // one tab's raw socket; the other tab parses each and emits it on its channel.
  relay: (N) =>
    new Promise((resolve, reject) => {
      const m = meter(N)
      const name = `relay:${relays++}`
      const leader = new BroadcastChannel(name)
      const follower = new BroadcastChannel(name)
      const events = createNanoEvents()
      const ws = new WebSocket(urlFor(N))
      const onMessage = () => {
        if (m.got()) {
          ws.close()
          leader.close()
          follower.close()
          resolve(m.result)
        }
      }
      for (let i = 0; i < channels; i++) events.on(`bench:${i}`, onMessage)
      follower.onmessage = (e) => {
        const frame = JSON.parse(e.data)
        if (frame.type === 'message') events.emit(frame.channel, frame)
      }
      ws.on('open', () => ws.send('{"type":"raw"}'))
      ws.on('message', (data) => leader.postMessage(String(data)))
      ws.on('error', reject)
    }),
  // shareAcrossTabs: a leader tab (first, so it wins the election) whose socket serves a follower tab
  // that subscribes; the follower's messages come through the leader's hub and BroadcastChannel.
  tabs: (N) =>
    new Promise((resolve) => {
      const key = `bench:${relays++}`
      const open = () =>
        createRealtime(
          { auth: { fetchToken: async () => ({ token: 'bench', expiresIn: 3600 }) }, url: urlFor(N) },
          { WebSocket, tabs: shareAcrossTabs({ key, locks, BroadcastChannel }) },
        )
      const leader = open()
      const m = meter(N)
      let follower
      const onMessage = () => {
        if (m.got()) {
          follower.close()
          leader.close()
          resolve(m.result)
        }
      }
      // The leader is elected first (its lock request comes first), then the follower joins.
      setTimeout(() => {
        follower = open()
        for (let i = 0; i < channels; i++) follower.channel(`bench:${i}`).subscribe(onMessage)
      }, 50)
    }),
  socketio: (N) =>
    new Promise((resolve, reject) => {
      const m = meter(N)
      const socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false })
      socket.on('message', () => {
        if (m.got()) {
          socket.close()
          resolve(m.result)
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
const result = await clients[kind](N)
clearTimeout(timer)
process.stdout.write(`${JSON.stringify({ ...result, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`)
process.exit(0)
