// Realtime receive throughput and peak RSS: a raw `ws` client doing JSON.parse (baseline),
// @tandem/realtime on 1 and 100 channels, and socket.io-client against a real socket.io server,
// all fed by the same blast server in its own process, each run in a fresh process of its own
// (receive-client.mjs). Then the time and frames to resubscribe 1,000 channels after a hub restart.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import os from 'node:os'
import { createClient } from '@tandem/core'
import { startEmulator } from '@tandem/emulator'
import { createRealtime } from '@tandem/realtime'
import WebSocket from 'ws'
import { spawnBlast } from './spawn-emulator.mjs'
import { fmt, summarize, table } from './stats.mjs'

const QUICK = Boolean(process.env.BENCH_QUICK) // a smoke run of the harness, not a measurement
const N = QUICK ? 20_000 : 100_000
const ROUNDS = QUICK ? 1 : 7
const CLIENT = new URL('./receive-client.mjs', import.meta.url).pathname
const run$ = promisify(execFile)
let blastPort = 0
/** Server-bound: the floor within this fraction of the raw client and of the server's own send rate. */
const BOUND = 0.05

async function receive(kind, port, channels) {
  const { stdout } = await run$(process.execPath, [CLIENT, kind, String(port), String(N), String(channels)], {
    timeout: 90_000,
  })
  const got = JSON.parse(stdout)
  // The server's own figures for the blast just received (socket.io's have no written callback: queued only).
  const server = await (await fetch(`http://127.0.0.1:${blastPort}/last`)).json()
  return { ...got, server }
}

async function resubscribe1000() {
  const emu = await startEmulator({ plans: { realtime: false } })
  try {
    const client = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    const rt = createRealtime({ client }, { WebSocket, backoff: { baseMs: 50, maxMs: 200 } })
    const channels = Array.from({ length: 1000 }, (_, i) => rt.channel(`load:${i}`))
    const subscribed = () =>
      Promise.all(
        channels.map(
          (ch) =>
            new Promise((resolve) => {
              if (ch.state === 'subscribed') return resolve()
              const off = ch.on('state', (s) => {
                if (s.current === 'subscribed') {
                  off()
                  resolve()
                }
              })
            }),
        ),
      )
    for (const ch of channels) ch.subscribe(() => {})
    await subscribed()
    const before = emu.realtime.stats.framesIn?.subscribe ?? 0
    const started = performance.now()
    // Wait for each channel to leave `subscribed` and come back, not for the state it is already in.
    const back = Promise.all(
      channels.map(
        (ch) =>
          new Promise((resolve) => {
            const off = ch.on('state', (s) => {
              if (s.current === 'subscribed') {
                off()
                resolve()
              }
            })
          }),
      ),
    )
    emu.realtime.restart()
    await back
    const ms = performance.now() - started
    const frames = (emu.realtime.stats.framesIn?.subscribe ?? 0) - before
    rt.close()
    return { ms, frames }
  } finally {
    await emu.close()
  }
}

const BASE = 'raw ws + JSON.parse (baseline)'
const FLOOR = 'partysocket + JSON.parse + nanoevents (the floor)'
const RELAY = 'raw ws → a bare BroadcastChannel → JSON.parse + nanoevents (the floor)'
const TAB = '@tandem/realtime follower tab (`shareAcrossTabs`)'
export async function run() {
  const load = os.loadavg()[0] // before the run: what else the machine was doing
  const blast = await spawnBlast()
  blastPort = blast.port
  try {
    const groups = {
      '1 channel': {
        [BASE]: () => receive('raw', blast.port, 1),
        [FLOOR]: () => receive('partysocket', blast.port, 1),
        '@tandem/realtime': () => receive('tandem', blast.port, 1),
        'socket.io-client (vs a socket.io server)': () => receive('socketio', blast.socketIoPort, 1),
      },
      '100 channels': {
        [BASE]: () => receive('raw', blast.port, 100),
        [FLOOR]: () => receive('partysocket', blast.port, 100),
        '@tandem/realtime': () => receive('tandem', blast.port, 100),
      },
      // Both tabs in one Node process (receive-client.mjs): the relay's own cost, not Chromium's BroadcastChannel.
      'shared tab, 1 channel': {
        [RELAY]: () => receive('relay', blast.port, 1),
        [TAB]: () => receive('tabs', blast.port, 1),
      },
    }
    const contenders = Object.entries(groups).flatMap(([g, cs]) =>
      Object.entries(cs).map(([name, fn]) => [`${g}|${name}`, fn]),
    )
    for (const [, fn] of contenders) await fn() // warm-up (disk cache, JIT of the servers)
    const samples = {}
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order each round, so drift on a noisy machine hits everyone alike.
      const order = contenders.slice(round % contenders.length).concat(contenders.slice(0, round % contenders.length))
      for (const [key, fn] of order) (samples[key] ??= []).push(await fn())
    }
    const rows = []
    const figures = {}
    const bound = []
    for (const [g, cs] of Object.entries(groups)) {
      // The shared-tab group has one floor, its baseline too.
      const base = samples[`${g}|${cs[BASE] ? BASE : RELAY}`]
      const floor = samples[`${g}|${cs[FLOOR] ? FLOOR : RELAY}`]
      for (const name of Object.keys(cs)) {
        const got = samples[`${g}|${name}`]
        const s = summarize(got.map((x) => x.rate))
        const r = summarize(got.map((x, i) => x.rate / base[i].rate))
        const f = summarize(got.map((x, i) => x.rate / floor[i].rate))
        const cpu = summarize(got.map((x) => x.cpuUs))
        // The goal's reading where throughput cannot tell: the floor's CPU per message over this client's.
        const c = summarize(got.map((x, i) => floor[i].cpuUs / x.cpuUs))
        const sent = summarize(got.map((x) => x.server.sendRate))
        if (name === '@tandem/realtime' && cs[FLOOR]) {
          figures[`receive, ${g}, vs partysocket floor`] = f.median
          figures[`receive CPU per message, ${g}, vs partysocket floor`] = c.median
        }
        const rss = summarize(got.map((x) => x.maxRssMiB))
        rows.push([
          g,
          name,
          fmt(s.median),
          `${fmt(s.min)}–${fmt(s.max)}`,
          `**${fmt(r.median, 2)}×** (${fmt(r.min, 2)}–${fmt(r.max, 2)})`,
          `**${fmt(f.median, 2)}×** (${fmt(f.min, 2)}–${fmt(f.max, 2)})`,
          `${fmt(cpu.median, 2)} (${fmt(cpu.min, 2)}–${fmt(cpu.max, 2)})`,
          `**${fmt(c.median, 2)}×** (${fmt(c.min, 2)}–${fmt(c.max, 2)})`,
          fmt(sent.median),
          fmt(rss.median, 1),
        ])
      }
      const fl = summarize(floor.map((x) => x.rate)).median
      const raw = summarize(base.map((x) => x.rate)).median
      const served = summarize(floor.map((x) => x.server.sendRate)).median
      const isBound = fl >= (1 - BOUND) * raw && fl >= (1 - BOUND) * served
      bound.push(
        `${g}: ${isBound ? '**server-bound**' : 'not server-bound'} (floor ${fmt(fl)} msgs/s, raw ${fmt(raw)}, the server sent at ${fmt(served)})`,
      )
    }
    const resub = await resubscribe1000()
    return {
      figures: { ratios: figures, goal: 1 },
      title: `Realtime receive throughput (msgs/s, ${N.toLocaleString('en-US')} small JSON messages per run, ${ROUNDS} interleaved rounds), peak RSS, and resubscribe`,
      body:
        table(
          [
            'channels',
            'client',
            'median msgs/s',
            'min–max',
            'paired ratio to raw ws (min–max)',
            'paired ratio to partysocket + nanoevents (min–max)',
            'client CPU µs per message, median (min–max)',
            'paired CPU ratio: the floor’s over this (min–max)',
            'server send rate, msgs/s (median)',
            'peak RSS MiB (median)',
          ],
          rows,
        ) +
        "\n\nGoal: @tandem/realtime ≥ 0.95× the bare partysocket + JSON.parse + nanoevents client (the design card's floor: what Tandem is built on, with none of its handshake, resume, dedupe or checks). Each run is a fresh Node process (so peak RSS is the client's own, Node itself included: a bare" +
        ' `node -e ""` is about 40 MiB); every client\'s clock starts before it connects. The servers run in another process:' +
        ' a `ws` server speaking just enough of docs/protocol.md, and a real socket.io server (websocket transport) emitting the same payloads.' +
        ` socket.io has no client-side channels, so it is measured on 1.` +
        " The shared-tab rows run two tabs in one Node process (Node's BroadcastChannel, a Web Locks stand-in): a leader tab whose socket serves a follower tab that subscribes, against one tab's raw socket posting each frame on a bare BroadcastChannel to the other, which parses and emits it; both ratios of that group are to that floor, and the CPU is both tabs'." +
        "\n\nCPU per message: the client process's user + system time (`process.cpuUsage()`) from its first message to its last, start-up and connect left out, paired with the floor's run of the same round. The CPU ratio is the floor's CPU per message over the client's (above 1: cheaper than the floor); it is the goal's reading when the server bounds the run. " +
        `A group is server-bound when the floor is within ${BOUND * 100}% of the raw client and of the blast server's own send rate (first frame to the last one written; socket.io's: to the last one queued): then every client waits on the server, and msgs/s cannot rank them.\n\n` +
        bound.join('. ') +
        `. Load average ${fmt(load, 2)} on ${os.cpus().length} CPUs when the bench started.` +
        `\n\nResubscribe after a hub restart (emulator, 1,000 channels, backoff 50–200 ms): **${fmt(resub.ms)} ms** until every channel is subscribed again, in **${resub.frames}** subscribe frame(s).`,
    }
  } finally {
    blast.stop()
  }
}
