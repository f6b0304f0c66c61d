// REST overhead: @tandem/core against native fetch (the floor), ky and ofetch, against the emulator's
// /v1/resources, sequential and 32 wide, in interleaved rounds. Two measures per batch: the client
// process's own CPU time per request (`process.cpuUsage()`) and requests/s. CPU per request sees the
// client on any host; requests/s only where the client, not the emulator or a busy machine, is the bound.
//
// Each client runs in a process of its own (this file, forked), kept for every round: process CPU
// counts the collector's threads, and in one shared process the garbage one client leaves (its
// requests, and the FinalizationRegistry cleanup undici runs for each AbortSignal it was given) is
// collected during the next client's batch. A process per client charges each its own collection;
// kept across rounds, it stays warm (JIT, open sockets) with no startup in any measure.
import { fork } from 'node:child_process'
import { once } from 'node:events'
import os from 'node:os'
import { createClient } from '@tandem/core'
import ky from 'ky'
import { ofetch } from 'ofetch'
import { spawnEmulator } from './spawn-emulator.mjs'
import { fmt, summarize, table } from './stats.mjs'

const ROUNDS = 16
const SEQUENTIAL = 300
const CONCURRENT = { total: 1_000, width: 32 }
const TANDEM = '@tandem/core'
const OFETCH = 'ofetch'
const FETCH = 'native fetch (baseline)'
const NAMES = [FETCH, TANDEM, 'ky', OFETCH, 'ofetch + timeout']
const CHILD = 'TANDEM_BENCH_REST_CLIENT'

/** One client's call, made in its own process. */
function contender(name, { url: base, token }) {
  const url = `${base}/support/v1/resources?limit=1`
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' }
  if (name === FETCH)
    return async () => {
      const r = await fetch(url, { headers })
      if (!r.ok) throw new Error(String(r.status))
      return r.json()
    }
  if (name === TANDEM) {
    // No plan limits: we measure the client's own cost, not the service's quota.
    const client = createClient({
      baseUrl: base,
      auth: { fetchToken: async () => ({ token, expiresIn: 3_600 }) },
      services: { support: { rateLimit: false } },
    })
    return () => client.support.resources.list({ limit: 1 })
  }
  if (name === 'ky') {
    const api = ky.create({ headers, retry: 0 })
    return () => api.get(url).json()
  }
  // As a user of ofetch would call it, and as Tandem does: ofetch joins the base URL and the query.
  // `ofetch + timeout` adds a per-request timeout, as Tandem's attempts have (any AbortSignal costs undici).
  const timeout = name === OFETCH ? undefined : 15_000
  return () => ofetch('/v1/resources', { baseURL: `${base}/support`, query: { limit: 1 }, headers, retry: 0, timeout })
}

const MODES = {
  sequential: async (fn) => {
    for (let i = 0; i < SEQUENTIAL; i++) await fn()
    return SEQUENTIAL
  },
  '32 concurrent': async (fn) => {
    let next = 0
    const worker = async () => {
      while (next++ < CONCURRENT.total) await fn()
    }
    await Promise.all(Array.from({ length: CONCURRENT.width }, worker))
    return CONCURRENT.total
  },
}

/** The child: warms up, then runs one batch per message and answers with its CPU and rate. */
async function serve({ name, emu }) {
  const fn = contender(name, emu)
  for (let i = 0; i < 200; i++) await fn() // warm-up (JIT, sockets)
  process.on('message', async (mode) => {
    try {
      // One wave first, outside the measure: the connections a batch needs are open (an idle one
      // may have been closed while the others ran).
      await Promise.all(Array.from({ length: mode === 'sequential' ? 1 : CONCURRENT.width }, fn))
      const cpu = process.cpuUsage()
      const started = performance.now()
      const n = await MODES[mode](fn)
      const seconds = (performance.now() - started) / 1000
      const used = process.cpuUsage(cpu)
      process.send({ cpu: (used.user + used.system) / n, rate: n / seconds })
    } catch (error) {
      process.send({ error: String(error) })
    }
  })
  process.on('disconnect', () => process.exit()) // the bench ended, or died
  process.send('ready')
}
if (process.env[CHILD]) await serve(JSON.parse(process.env[CHILD]))

export async function run() {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')
  const loadBefore = load()
  const emu = await spawnEmulator()
  const children = new Map()
  try {
    for (const name of NAMES) {
      const env = { ...process.env, [CHILD]: JSON.stringify({ name, emu: { url: emu.url, token: emu.token } }) }
      const child = fork(new URL(import.meta.url).pathname, [], { env })
      children.set(name, child)
      const [ready] = await once(child, 'message')
      if (ready !== 'ready') throw new Error(`rest bench: ${name} did not start`)
    }
    // One batch in the named client's process; a client that fails or dies fails the bench (no hang).
    const batch = (name, mode) =>
      new Promise((resolve, reject) => {
        const child = children.get(name)
        const died = (code) => reject(new Error(`rest bench: ${name} exited (${code})`))
        child.once('exit', died)
        child.once('message', (got) => {
          child.off('exit', died)
          if (got.error) reject(new Error(`rest bench: ${name}: ${got.error}`))
          else resolve(got)
        })
        child.send(mode)
      })
    // Per `${mode}|${client}`: one { cpu: µs per request, rate: requests/s } per round.
    const samples = {}
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of Object.keys(MODES)) {
        // Interleave, rotating the order each round (and reversing it every other), so drift on a
        // noisy machine hits everyone alike and no client always follows the same one.
        const order = NAMES.slice(round % NAMES.length).concat(NAMES.slice(0, round % NAMES.length))
        if (round % 2) order.reverse()
        for (const name of order) (samples[`${mode}|${name}`] ??= []).push(await batch(name, mode))
      }
    }
    // Paired ratios: each round's figure against the baseline measured beside it, so drift cancels
    // out. Both read "higher is better": the other's CPU over this one's, this one's rate over the other's.
    const cpuRatio = (got, to) => summarize(got.map((s, i) => to[i].cpu / s.cpu))
    const rateRatio = (got, to) => summarize(got.map((s, i) => s.rate / to[i].rate))
    const range = (r, digits = 2) => `**${fmt(r.median, digits)}** (${fmt(r.min, digits)}–${fmt(r.max, digits)})`
    const rows = []
    const ratios = {}
    for (const mode of Object.keys(MODES)) {
      const at = (name) => samples[`${mode}|${name}`]
      ratios[`REST ${mode}, CPU vs ofetch`] = cpuRatio(at(TANDEM), at(OFETCH)).median
      ratios[`REST ${mode}, req/s vs ofetch`] = rateRatio(at(TANDEM), at(OFETCH)).median
      for (const name of NAMES) {
        const got = at(name)
        const cpu = summarize(got.map((s) => s.cpu))
        const rate = summarize(got.map((s) => s.rate))
        rows.push([
          mode,
          name,
          `${fmt(cpu.median)} (${fmt(cpu.min)}–${fmt(cpu.max)})`,
          range(cpuRatio(got, at(OFETCH))),
          range(cpuRatio(got, at(FETCH))),
          `${fmt(rate.median)} (${fmt(rate.min)}–${fmt(rate.max)})`,
          range(rateRatio(got, at(OFETCH))),
        ])
      }
    }
    return {
      figures: { ratios, goal: 0.9 },
      title: `REST overhead (client CPU per request and requests/s, ${ROUNDS} interleaved rounds; sequential ${SEQUENTIAL} requests, concurrent ${CONCURRENT.total} requests ${CONCURRENT.width} wide)`,
      body:
        table(
          [
            'mode',
            'client',
            'CPU µs/request',
            'by CPU, vs ofetch',
            'by CPU, vs fetch',
            'requests/s',
            'by requests/s, vs ofetch',
          ],
          rows,
        ) +
        `\n\nLoad average (1 / 5 / 15 min): ${loadBefore} before, ${load()} after.\n\n` +
        'CPU µs/request: user + system time of the client process (`process.cpuUsage()`) over a batch, per request; each client runs in a process of its own, kept warm across rounds (so each is charged its own garbage collection), and the emulator in another. ' +
        "Ratios are paired per round and read \"higher is better\": the other client's CPU over this one's, this one's requests/s over the other's (medians, min–max). " +
        'CPU per request measures the client on any host; requests/s only where the client is the bound (not the emulator, not a busy machine).\n\n' +
        'Goal: `@tandem/core` ≥ 0.90× ofetch alone, by CPU per request and by requests/s, sequential and 32 wide (Tandem is built on it and should add only its pipeline: token, rate limiter, deadlines, retries, typed errors, the contract check of each answer). ' +
        "Every Tandem attempt carries an AbortSignal (its timeout, the caller's signal, the call's deadline); `ofetch + timeout` is ofetch with that same guarantee (its own `timeout` option).",
    }
  } finally {
    for (const child of children.values()) child.kill()
    await emu.stop()
  }
}
