// REST overhead: requests/s through @tandem/core vs native fetch (baseline), ky and ofetch, against
// the emulator's /v1/resources, sequential and 32-concurrent, in interleaved rounds.
import { createClient } from '@tandem/core'
import ky from 'ky'
import { ofetch } from 'ofetch'
import { spawnEmulator } from './spawn-emulator.mjs'
import { fmt, summarize, table } from './stats.mjs'

// Many short rounds: on a noisy VM, fine interleaving matters more than long runs.
const ROUNDS = 40
const SEQUENTIAL = 100
const CONCURRENT = { total: 400, width: 32 }

export async function run() {
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
      'native fetch (baseline)': async () => {
        const r = await fetch(url, { headers })
        if (!r.ok) throw new Error(String(r.status))
        return r.json()
      },
      '@tandem/core': () => client.support.resources.list({ limit: 1 }),
      ky: () => api.get(url).json(),
      // As a user of ofetch would call it, and as Tandem does: ofetch joins the base URL and the query.
      ofetch: () => ofetch('/v1/resources', { baseURL: `${emu.url}/support`, query: { limit: 1 }, headers, retry: 0 }),
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
    for (const fn of Object.values(contenders)) for (let i = 0; i < 50; i++) await fn() // warm-up
    const samples = {}
    for (let round = 0; round < ROUNDS; round++) {
      for (const [mode, runMode] of Object.entries(modes)) {
        // Interleave, rotating the order each round, so drift on a noisy machine hits everyone alike.
        const names = Object.keys(contenders)
        const order = names.slice(round % names.length).concat(names.slice(0, round % names.length))
        for (const name of order) {
          const started = performance.now()
          const n = await runMode(contenders[name])
          ;(samples[`${mode}|${name}`] ??= []).push(n / ((performance.now() - started) / 1000))
        }
      }
    }
    // Paired ratios: each round's figure over the baselines measured beside it, so drift cancels out.
    const rows = []
    const figures = {}
    for (const mode of Object.keys(modes)) {
      const tandem = samples[`${mode}|@tandem/core`]
      const paired = (to) => summarize(tandem.map((v, i) => v / samples[`${mode}|${to}`][i])).median
      figures[`REST ${mode}, vs ofetch`] = paired('ofetch')
      figures[`REST ${mode}, vs ofetch + timeout`] = paired('ofetch + timeout')
      const base = samples[`${mode}|native fetch (baseline)`]
      const bare = samples[`${mode}|ofetch`]
      const timed = samples[`${mode}|ofetch + timeout`]
      const ratio = (got, to) => {
        const r = summarize(got.map((v, i) => v / to[i]))
        return `**${fmt(r.median, 2)}×** (${fmt(r.min, 2)}–${fmt(r.max, 2)})`
      }
      for (const name of Object.keys(contenders)) {
        const got = samples[`${mode}|${name}`]
        const s = summarize(got)
        rows.push([
          mode,
          name,
          fmt(s.median),
          `${fmt(s.min)}–${fmt(s.max)}`,
          ratio(got, base),
          ratio(got, bare),
          ratio(got, timed),
        ])
      }
    }
    return {
      figures: { ratios: figures, goal: 0.9 },
      title: `REST overhead (requests/s, ${ROUNDS} interleaved rounds; sequential ${SEQUENTIAL} requests, concurrent ${CONCURRENT.total} requests ${CONCURRENT.width} wide)`,
      body:
        table(
          [
            'mode',
            'client',
            'median req/s',
            'min–max',
            'ratio to fetch',
            'ratio to ofetch',
            'ratio to ofetch + timeout',
          ],
          rows,
        ) +
        '\n\nGoal: `@tandem/core` ≥ 0.90× ofetch alone (Tandem is built on it and should add only its pipeline: token, rate limiter, retries, typed errors). ' +
        "Every Tandem attempt carries an AbortSignal (its timeout, the caller's signal, the call's deadline), and on Node any signal costs undici a per-request AbortController and a FinalizationRegistry entry: " +
        '`ofetch + timeout` is ofetch with that same guarantee (its own `timeout` option), the fair floor under load.',
    }
  } finally {
    await emu.stop()
  }
}
