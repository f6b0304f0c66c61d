// The emulator and the publisher of bench/src/tabs.mjs, in their own process (as a remote service
// would be): the browser's tabs are the only clients the bench measures. Prints { url, token } as
// one JSON line, then answers one JSON line per command read on stdin:
//   { op: 'stats' }                          → { open, total }: the service's WebSockets, the publisher's left out
//   { op: 'publish', channel, n, gapMs, r }  → { acked }: n messages { r, i }, one every gapMs (≥ 1 timer tick)
import { createInterface } from 'node:readline'
import { startEmulator } from '@tandem/emulator'
import { createRealtime } from '@tandem/realtime'
import WebSocket from 'ws'

const emu = await startEmulator({
  plans: { maps: false, support: false, realtime: false },
  // The publisher is one connection: far above the per-connection default of 100/s.
  realtime: { publishRate: { limit: 1_000_000, intervalMs: 1_000 } },
})
const mint = (subject) => emu.mintToken({ subject, scope: ['realtime'], ttlSeconds: 3_600 })
const [token, publisherToken] = await Promise.all([mint('ana'), mint('publisher')])
const pub = createRealtime(
  { auth: { fetchToken: async () => ({ token: publisherToken, expiresIn: 3_600 }) }, url: `${emu.url}/realtime` },
  { WebSocket, maxQueued: 10_000 },
)
await pub.channel('warm').publish('n', 0) // connected before anything is counted
const stats = emu.realtime.stats.connections
const mine = { open: stats.open, total: stats.total } // the publisher's own socket

const say = (o) => process.stdout.write(`${JSON.stringify(o)}\n`)
say({ url: emu.url, token })
for await (const line of createInterface({ input: process.stdin })) {
  const cmd = JSON.parse(line)
  if (cmd.op === 'stats') say({ open: stats.open - mine.open, total: stats.total - mine.total })
  else if (cmd.op === 'publish') {
    const channel = pub.channel(cmd.channel)
    const acks = []
    for (let i = 0; i < cmd.n; i++) {
      acks.push(channel.publish('m', { r: cmd.r, i }))
      if (cmd.gapMs > 0 && i < cmd.n - 1) await new Promise((resolve) => setTimeout(resolve, cmd.gapMs))
    }
    say({ acked: (await Promise.all(acks)).length })
  }
}
pub.close()
await emu.close()
