// One presence run in a fresh process: N members from `presence.get`, then N `enter` events.
//   node presence-client.mjs <raw|copy|tandem> <port> <n>
// Prints { ms, cpuMs, maxBlockMs, notifications } as one JSON line. The clock starts when the
// client asks for the members (Tandem: when its channel is subscribed, which sends the request) and
// stops when a listener reading the snapshot sees all 2N members; cpuMs is the process's CPU time
// over the same span, maxBlockMs the longest the event loop was held.
import { createRealtime } from '@tandem/realtime'
import { presenceStore } from '@tandem/realtime/presence'
import WebSocket from 'ws'

const [kind, port, count] = process.argv.slice(2)
const N = Number(count)
const url = `ws://127.0.0.1:${port}/n/${N}/ws`

/** A raw `ws` client keeping the members its own way: `apply` returns the snapshot after each event. */
const raw = (start, apply) =>
  new Promise((resolve) => {
    const ws = new WebSocket(url)
    let notifications = 0
    ws.on('open', () => {
      start()
      ws.send('{"type":"presence.get","id":1,"channel":"room"}')
    })
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data))
      const snapshot = apply(frame)
      notifications++
      if (snapshot.length === 2 * N) {
        ws.close()
        resolve(notifications)
      }
    })
  })

const clients = {
  // The floor: a Map keyed by connectionId, and one copy at the end (what any client must do).
  raw: (start) => {
    const table = new Map()
    let seen = 0
    return raw(start, (f) => {
      if (f.type === 'presence.members') for (const m of f.members) table.set(m.connectionId, m)
      else if (f.action === 'leave') table.delete(f.member.connectionId)
      else table.set(f.member.connectionId, f.member)
      seen++
      return seen === N + 1 ? [...table.values()] : []
    })
  },
  // Tandem's presence store before issue 27: a filtered copy of the list, and a notification, per event.
  copy: (start) => {
    let members = []
    return raw(start, (f) => {
      if (f.type === 'presence.members') members = f.members
      else {
        const others = members.filter((m) => m.connectionId !== f.member.connectionId)
        members = f.action === 'leave' ? others : [...others, f.member]
      }
      return members
    })
  },
  tandem: (start) =>
    new Promise((resolve) => {
      const rt = createRealtime(
        { auth: { fetchToken: async () => ({ token: 'bench', expiresIn: 3600 }) }, url },
        { WebSocket },
      )
      const channel = rt.channel('room')
      channel.on('state', ({ current }) => current === 'subscribed' && start())
      const store = presenceStore(channel)
      let notifications = 0
      store.subscribe(() => {
        notifications++
        if (store.getSnapshot().length === 2 * N) {
          rt.close()
          resolve(notifications)
        }
      })
    }),
}

const timer = setTimeout(() => {
  console.error(`${kind}: no result after 120 s`)
  process.exit(1)
}, 120_000)
let started = 0
let cpu
// The longest the event loop was held: the largest gap between 1 ms ticks.
let maxBlockMs = 0
let last = 0
const ticker = setInterval(() => {
  const now = performance.now()
  if (started) maxBlockMs = Math.max(maxBlockMs, now - last)
  last = now
}, 1)
const notifications = await clients[kind](() => {
  started = performance.now()
  cpu = process.cpuUsage()
  last = started
})
const ms = performance.now() - started
const used = process.cpuUsage(cpu)
clearInterval(ticker)
clearTimeout(timer)
const result = {
  ms,
  cpuMs: (used.user + used.system) / 1000,
  maxBlockMs: Math.max(maxBlockMs, performance.now() - last),
  notifications,
}
process.stdout.write(`${JSON.stringify(result)}\n`)
process.exit(0)
