// Browser side of bench/src/tabs.mjs, bundled by esbuild and served on a real http://127.0.0.1
// origin (Web Locks and BroadcastChannel need one). Every tab runs one @tandem/realtime client,
// shared across the tabs (`shareAcrossTabs`) or not, and records when each message arrives on the
// clock all the pages of one browser share: performance.timeOrigin + performance.now().
import { createRealtime } from '@tandem/realtime'
import { shareAcrossTabs } from '@tandem/realtime/tabs'

const now = () => performance.timeOrigin + performance.now()
// What arrived this round, per kind ('hop': a channel message; 'floor': a bare BroadcastChannel
// post): the arrival time by the message's index, and a promise for "all `n` arrived".
const rounds = {}
const round = (kind) => (rounds[kind] ??= { at: [], count: 0, want: Infinity, done: () => {}, all: undefined })
function arrived(kind, i, t) {
  const r = round(kind)
  if (r.at[i] === undefined) r.count++
  r.at[i] = t
  if (r.count >= r.want) r.done()
}

let rt
let tabs
// The floor: the same frame text, posted on a bare BroadcastChannel of its own.
const bare = new BroadcastChannel('bench:floor')
bare.onmessage = (e) => {
  const t = now()
  arrived('floor', JSON.parse(e.data).data.i, t)
}
// Echoes for the clock check: the leader's pings come straight back with this page's clock.
const ping = new BroadcastChannel('bench:ping')
ping.onmessage = (e) => {
  if (e.data.pong === undefined && tabs?.role !== 'leader') ping.postMessage({ i: e.data.i, pong: now() })
}

/** Starts this tab's client and resolves once each channel is subscribed. */
window.benchStart = ({ url, token, share, key, hop, floor }) => {
  tabs = share ? shareAcrossTabs({ key }) : undefined
  rt = createRealtime({ auth: { fetchToken: async () => ({ token, expiresIn: 3_600 }) }, url }, tabs ? { tabs } : {})
  const names = [hop, floor].filter(Boolean)
  const ready = names.map(
    (name) =>
      new Promise((resolve, reject) => {
        const channel = rt.channel(name)
        channel.on('state', ({ current, error }) => {
          if (current === 'subscribed') resolve()
          if (current === 'failed') reject(new Error(`${name}: ${error?.message ?? 'subscribe failed'}`))
        })
      }),
  )
  rt.channel(hop).subscribe((m) => arrived('hop', m.data.i, now()))
  // Only the leader subscribes the floor's channel: it posts each message's frame text as is.
  if (floor)
    rt.channel(floor).subscribe((m) => {
      const text = JSON.stringify({ type: 'message', ...m })
      const t = now()
      arrived('floor', m.data.i, t)
      bare.postMessage(text)
    })
  return Promise.all(ready).then(() => true)
}

window.benchRole = () => tabs?.role ?? 'unshared'

/** Forgets the last round of `kind`: the next one is `n` messages (armed before anything is published). */
window.benchExpect = (kind, n) => {
  const r = { at: [], count: 0, want: n }
  r.all = new Promise((resolve) => (r.done = () => resolve(true)))
  rounds[kind] = r
}

/** Resolves once every message of this round of `kind` arrived. */
window.benchWait = (kind) => round(kind).all

/** This round's arrival times of `kind`, by message index. */
window.benchTake = (kind) => round(kind).at

/** The leader's side of the clock check: `n` pings, one at a time; [sent, echoed (other clock), back]. */
window.benchPingPong = (n) =>
  new Promise((resolve) => {
    const samples = []
    let sent = 0
    const send = () => {
      sent = now()
      ping.postMessage({ i: samples.length })
    }
    ping.onmessage = (e) => {
      if (e.data.pong === undefined) return
      samples.push([sent, e.data.pong, now()])
      if (samples.length === n) resolve(samples)
      else send()
    }
    send()
  })

window.benchEnv = () => ({
  isolated: globalThis.crossOriginIsolated === true,
  visibility: document.visibilityState,
  locks: typeof navigator.locks?.request === 'function',
})

window.benchReady = true
