// Realtime receive throughput: @tandem/realtime vs a raw `ws` client doing JSON.parse (baseline),
// both fed by the same blast server in its own process; and the time to resubscribe 1,000 channels
// after the emulator hub restarts.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { createClient } from '@tandem/core'
import { startEmulator } from '@tandem/emulator'
import { createRealtime } from '@tandem/realtime'
import WebSocket from 'ws'
import { fmt, summarize, table } from './stats.mjs'

const N = 100_000
const ROUNDS = 7

async function startBlast() {
  const child = spawn(process.execPath, [new URL('./blast-server.mjs', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [line] = await once(createInterface({ input: child.stdout }), 'line')
  return { port: JSON.parse(line).port, stop: () => child.kill() }
}

function raw(port, channels) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/n/${N}/c/${channels}/ws`)
    let got = 0
    let started = 0
    ws.on('open', () => { started = performance.now(); ws.send('{"type":"raw"}') })
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data))
      if (frame.type === 'message' && ++got === N) { const ms = performance.now() - started; ws.close(); resolve(N / (ms / 1000)) }
    })
    ws.on('error', reject)
  })
}

async function tandem(port, channels) {
  const rt = createRealtime(
    { auth: { fetchToken: async () => ({ token: 'bench', expiresIn: 3600 }) }, url: `ws://127.0.0.1:${port}/n/${N}/c/${channels}/ws` },
    { WebSocket },
  )
  let got = 0
  let started = 0
  const done = new Promise((resolve) => {
    const onMessage = () => { if (++got === N) resolve(N / ((performance.now() - started) / 1000)) }
    started = performance.now()
    for (let i = 0; i < channels; i++) rt.channel(`bench:${i}`).subscribe(onMessage)
  })
  const rate = await done
  rt.close()
  return rate
}

async function resubscribe1000() {
  const emu = await startEmulator({ plans: { realtime: false } })
  try {
    const client = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    const rt = createRealtime({ client }, { WebSocket, backoff: { baseMs: 50, maxMs: 200 } })
    const channels = Array.from({ length: 1000 }, (_, i) => rt.channel(`load:${i}`))
    await Promise.all(channels.map((ch) => new Promise((resolve) => {
      ch.subscribe(() => {})
      const off = ch.on('state', (s) => { if (s.current === 'subscribed') { off(); resolve() } })
    })))
    const before = emu.realtime.stats.framesIn?.subscribe ?? 0
    const resubscribed = Promise.all(channels.map((ch) => new Promise((resolve) => {
      const off = ch.on('state', (s) => { if (s.current === 'subscribed') { off(); resolve() } })
    })))
    const started = performance.now()
    emu.realtime.restart()
    await resubscribed
    const ms = performance.now() - started
    const frames = (emu.realtime.stats.framesIn?.subscribe ?? 0) - before
    rt.close()
    return { ms, frames }
  } finally {
    await emu.close()
  }
}

export async function run() {
  const blast = await startBlast()
  try {
    const contenders = {
      'raw ws + JSON.parse (baseline), 1 channel': () => raw(blast.port, 1),
      '@tandem/realtime, 1 channel': () => tandem(blast.port, 1),
      'raw ws + JSON.parse (baseline), 100 channels': () => raw(blast.port, 100),
      '@tandem/realtime, 100 channels': () => tandem(blast.port, 100),
    }
    for (const fn of Object.values(contenders)) await fn() // warm-up
    const samples = {}
    for (let round = 0; round < ROUNDS; round++) for (const [name, fn] of Object.entries(contenders)) (samples[name] ??= []).push(await fn())
    const rows = []
    for (const ch of ['1 channel', '100 channels']) {
      const base = samples[`raw ws + JSON.parse (baseline), ${ch}`]
      for (const name of [`raw ws + JSON.parse (baseline), ${ch}`, `@tandem/realtime, ${ch}`]) {
        const s = summarize(samples[name])
        const r = summarize(samples[name].map((v, i) => v / base[i]))
        rows.push([name, fmt(s.median), `${fmt(s.min)}–${fmt(s.max)}`, `**${fmt(r.median, 2)}×**`, `${fmt(r.min, 2)}–${fmt(r.max, 2)}`])
      }
    }
    const resub = await resubscribe1000()
    return {
      title: `Realtime receive throughput (msgs/s, ${N.toLocaleString('en-US')} small JSON messages per run, ${ROUNDS} interleaved rounds) and resubscribe`,
      body: table(['client', 'median msgs/s', 'min–max', 'median paired ratio', 'ratio min–max'], rows)
        + `\n\nGoal: ≥ 0.95× the raw client. The blast server runs in its own process and speaks just enough of the protocol.`
        + `\n\nResubscribe after a hub restart (emulator, 1,000 channels, backoff 50–200 ms): **${fmt(resub.ms)} ms** until every channel is subscribed again, in **${resub.frames}** subscribe frame(s).`,
    }
  } finally {
    blast.stop()
  }
}
