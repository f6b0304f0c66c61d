// REST overhead: @tandem/core against native fetch (the floor), ky and ofetch, against the emulator's
// /v1/resources, sequential and 32 wide, in interleaved rounds. Two measures per batch: the client
// process's own CPU time per request (`process.cpuUsage()`; the emulator runs in its own process,
// so its CPU is not counted) and requests/s. CPU per request sees the client on any host; requests/s
// only where the client, not the emulator or a busy machine, is the bound.
import os from 'node:os'
import { createClient } from '@tandem/core'
import ky from 'ky'
import { ofetch } from 'ofetch'
import { spawnEmulator } from './spawn-emulator.mjs'
import { fmt, summarize, table } from './stats.mjs'

// Rounds short enough to interleave finely on a noisy VM, batches long enough that the garbage one
// client leaves for the collector (process CPU: its threads too) is a small part of the next one's.
const ROUNDS = 16
const SEQUENTIAL = 300
const CONCURRENT = { total: 1_000, width: 32 }
const TANDEM = '@tandem/core'
const OFETCH = 'ofetch'
const FETCH = 'native fetch (baseline)'

export async function run() {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')
  const loadBefore = load()
  // No plan limits: we measure the client's own cost, not the service's quota.
  const emu = await spawnEmulator()
  try {
    const { token } = emu
    const url = `${emu.url}/support/v1/resources?limit=1`
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' }
    const client = createClient({
      baseUrl: emu.url,
      auth: { fetchToken: async () => ({ token, expiresIn: 3_600 }) },
      services: { support: { rateLimit: false } },
    })
    const api = ky.create({ headers, retry: 0 })
    const contenders = {
      [FETCH]: async () => {
        const r = await fetch(url, { headers })
        if (!r.ok) throw new Error(String(r.status))
        return r.json()
      },
      [TANDEM]: () => client.support.resources.list({ limit: 1 }),
      ky: () => api.get(url).json(),
      // As a user of ofetch would call it, and as Tandem does: ofetch joins the base URL and the query.
      [OFETCH]: () =>
        ofetch('/v1/resources', { baseURL: `${emu.url}/support`, query: { limit: 1 }, headers, retry: 0 }),
      // The same with a per-request timeout, as Tandem's attempts have: any AbortSignal costs undici.
      'ofetch + timeout': () =>
        ofetch('/v1/resources', {
          baseURL: `${emu.url}/support`,
          query: { limit: 1 },
          headers,
          retry: 0,
          timeout: 15_000,
        }),
    }
    const modes = {
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
    for (const fn of Object.values(contenders)) for (let i = 0; i < 200; i++) await fn() // warm-up (JIT, sockets)
    // Per `${mode}|${client}`: one { cpu: µs per request, rate: requests/s } per round.
    const samples = {}
    for (let round = 0; round < ROUNDS; round++) {
      for (const [mode, runMode] of Object.entries(modes)) {
        // Interleave, rotating the order each round (and reversing it every other), so drift on a
        // noisy machine hits everyone alike and no client always follows the same one.
        const names = Object.keys(contenders)
        const order = names.slice(round % names.length).concat(names.slice(0, round % names.length))
        if (round % 2) order.reverse()
        for (const name of order) {
          // One wave first, outside the measure: the connections a batch needs are open (an idle one
          // may have been closed while the others ran) whoever comes first.
          await Promise.all(Array.from({ length: mode === 'sequential' ? 1 : CONCURRENT.width }, contenders[name]))
          const cpu = process.cpuUsage()
          const started = performance.now()
          const n = await runMode(contenders[name])
          const seconds = (performance.now() - started) / 1000
          const used = process.cpuUsage(cpu)
          ;(samples[`${mode}|${name}`] ??= []).push({ cpu: (used.user + used.system) / n, rate: n / seconds })
        }
      }
    }
    // Paired ratios: each round's figure against the baseline measured beside it, so drift cancels
    // out. Both read "higher is better": the other's CPU over this one's, this one's rate over the other's.
    const cpuRatio = (got, to) => summarize(got.map((s, i) => to[i].cpu / s.cpu))
    const rateRatio = (got, to) => summarize(got.map((s, i) => s.rate / to[i].rate))
    const range = (r, digits = 2) => `**${fmt(r.median, digits)}** (${fmt(r.min, digits)}–${fmt(r.max, digits)})`
    const rows = []
    const ratios = {}
    for (const mode of Object.keys(modes)) {
      const at = (name) => samples[`${mode}|${name}`]
      ratios[`REST ${mode}, CPU vs ofetch`] = cpuRatio(at(TANDEM), at(OFETCH)).median
      ratios[`REST ${mode}, req/s vs ofetch`] = rateRatio(at(TANDEM), at(OFETCH)).median
      for (const name of Object.keys(contenders)) {
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
        'CPU µs/request: user + system time of the client process (`process.cpuUsage()`) over a batch, per request; the emulator runs in a process of its own. ' +
        "Ratios are paired per round and read \"higher is better\": the other client's CPU over this one's, this one's requests/s over the other's (medians, min–max). " +
        'CPU per request measures the client on any host; requests/s only where the client is the bound (not the emulator, not a busy machine).\n\n' +
        'Goal: `@tandem/core` ≥ 0.90× ofetch alone, by CPU per request and by requests/s, sequential and 32 wide (Tandem is built on it and should add only its pipeline: token, rate limiter, deadlines, retries, typed errors, the contract check of each answer). ' +
        "Every Tandem attempt carries an AbortSignal (its timeout, the caller's signal, the call's deadline); `ofetch + timeout` is ofetch with that same guarantee (its own `timeout` option).",
    }
  } finally {
    await emu.stop()
  }
}
