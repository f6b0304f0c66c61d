// Presence at scale: N members from `presence.get`, then N `enter` events right behind the answer,
// from a `ws` server in its own process (presence-server.mjs), each client run in a fresh process
// (presence-client.mjs). The baseline is a raw `ws` client keeping a Map; beside it Tandem's
// presenceStore, and the algorithm it had before issue 27 (a copy of the list per event).
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { fmt, summarize, table } from './stats.mjs'

const QUICK = Boolean(process.env.BENCH_QUICK) // a smoke run of the harness, not a measurement
const N = QUICK ? 2_000 : 10_000
const ROUNDS = QUICK ? 1 : 5
const CLIENT = new URL('./presence-client.mjs', import.meta.url).pathname
const run$ = promisify(execFile)

async function spawnServer() {
  const child = spawn(process.execPath, [new URL('./presence-server.mjs', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const timeout = setTimeout(() => child.kill(), 15_000)
  const [line] = await once(createInterface({ input: child.stdout }), 'line')
  clearTimeout(timeout)
  return { ...JSON.parse(line), stop: () => child.kill() }
}

const BASE = 'raw ws + JSON.parse + a Map (baseline)'
const CLIENTS = {
  [BASE]: 'raw',
  '@tandem/realtime presenceStore': 'tandem',
  'a copy of the list per event (presenceStore before issue 27)': 'copy',
}

export async function run() {
  const server = await spawnServer()
  const once$ = async (kind) =>
    JSON.parse(
      (await run$(process.execPath, [CLIENT, kind, String(server.port), String(N)], { timeout: 150_000 })).stdout,
    )
  try {
    const contenders = Object.entries(CLIENTS)
    await once$('raw') // warm-up (disk cache, the server's JIT)
    const samples = {}
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order each round, so drift on a noisy machine hits everyone alike.
      const order = contenders.slice(round % contenders.length).concat(contenders.slice(0, round % contenders.length))
      for (const [name, kind] of order) (samples[name] ??= []).push(await once$(kind))
    }
    const base = samples[BASE]
    const rows = Object.keys(CLIENTS).map((name) => {
      const got = samples[name]
      const ms = summarize(got.map((x) => x.ms))
      const cpu = summarize(got.map((x) => x.cpuMs))
      const ratio = summarize(got.map((x, i) => x.cpuMs / base[i].cpuMs))
      const block = summarize(got.map((x) => x.maxBlockMs))
      const told = summarize(got.map((x) => x.notifications))
      return [
        name,
        fmt(ms.median),
        `${fmt(ms.min)}–${fmt(ms.max)}`,
        fmt(cpu.median),
        `**${fmt(ratio.median, 2)}×** (${fmt(ratio.min, 2)}–${fmt(ratio.max, 2)})`,
        fmt(block.median),
        name === BASE ? '—' : fmt(told.median),
      ]
    })
    return {
      title: `Presence at scale (${fmt(N)} members, then ${fmt(N)} enters; ${ROUNDS} interleaved rounds)`,
      body:
        table(
          [
            'client',
            'median ms until all members are seen',
            'min–max',
            'median CPU ms',
            'paired CPU ratio to the baseline (min–max)',
            'longest event-loop block ms (median)',
            'listener notifications (median)',
          ],
          rows,
        ) +
        `\n\nGoal: all ${fmt(2 * N)} members applied in ≤ 3 s on this machine (issue 27: before, a copy of the list and a notification per event blocked the loop 17–35 s with a React list). Each run is a fresh Node process; the clock starts when the client asks for the members (Tandem: when its channel is subscribed, which sends \`presence.get\`) and stops when a listener reading the snapshot sees them all; CPU is the client process's over that span. The server, in another process, answers \`presence.get\` and sends the ${fmt(N)} enters right behind it, as fast as the socket takes them. Tandem's store applies events to a Map keyed by connectionId and builds one snapshot per frame (a 16 ms timer on Node), so its listener is told once or twice; the baseline builds its list once, at the end; the old algorithm copied the list and told its listener after every event.`,
    }
  } finally {
    server.stop()
  }
}
