// Address autocomplete that respects the quota (issue 32), its three targets measured against the
// emulator in its own process, on real timers (typing takes wall time here, not in `npm test`),
// beside a naive widget: one `autocompletePlaces` per keystroke, no debounce, no cache, no abort,
// on a client with neither rate limiter nor retries (what a widget on bare fetch does).
// 1. Requests per typed address, per kind of typist. 2. Ten addresses in one real minute on the
// free plan (100 per minute): 429s met and requests used. 3. Latency from the debounce firing (the
// store's `loading`) to the snapshot with suggestions, beside the bare call's.
import { createClient } from '@tandem/core/client'
import { autocompletePlaces, createAutocomplete } from '@tandem/core/maps'
import { spawnEmulator } from './spawn-emulator.mjs'
import { report } from './autocomplete-report.mjs'

const QUICK = Boolean(process.env.BENCH_QUICK) // a smoke run of the harness, not a measurement
const ADDRESS = '1600 Amphitheatre Parkway, Mountain View'
/** A typo, noticed after a look at the (empty) list, its word backspaced and retyped. */
const TYPO = '1600 Amphitheatre Parkway, Moutnain'
const BEFORE_WORD = '1600 Amphitheatre Parkway, '
/** Ten addresses the emulator knows, each written as its country writes it (the number first). */
const ADDRESSES = [
  ADDRESS,
  '10 Downing Street, London',
  '221 Baker Street, London',
  '350 Fifth Avenue, New York City',
  '1 Infinite Loop, Cupertino',
  '200 Castro Street, Mountain View',
  '1000 Market Street, San Francisco',
  '15 Rue de Rivoli, Paris',
  '300 George Street, Sydney',
  '100 Yonge Street, Toronto',
].slice(0, QUICK ? 2 : 10)
/** For the latency part: more inputs (streets without a number). */
const MORE_STREETS = ['Oxford Street, London', 'Hollywood Boulevard, Los Angeles', 'Lombard Street, San Francisco']
const SLOT_MS = 6_000 // ten addresses in one minute
const LATENCY_QUERIES = QUICK ? 20 : 240
/** Only for the latency part: the figure starts when the debounce fires, so its length is not in it. */
const LATENCY_DEBOUNCE_MS = 20
const PATH = '/v1/places:autocomplete'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const prefixes = (text, from = '') => [...text.slice(from.length)].map((_, i) => text.slice(0, from.length + i + 1))
const backspaces = (text, to) => [...text.slice(to.length)].map((_, i) => text.slice(0, text.length - i - 1))
const at = (ms) => (value) => ({ value, ms })

/** Each keystroke: the input's value after it, and the wait before the next one. */
const TYPISTS = [
  { name: 'fast typist, 80 ms a character', keys: prefixes(ADDRESS).map(at(80)) },
  { name: 'slow typist, 300 ms a character', keys: prefixes(ADDRESS).map(at(300)) },
  {
    name: 'a typo ("Moutnain"), a 1 s look at the list, the word backspaced and retyped, 80 ms a key',
    keys: [
      ...prefixes(TYPO).map((v, i, all) => ({ value: v, ms: i === all.length - 1 ? 1_000 : 80 })),
      ...backspaces(TYPO, BEFORE_WORD).map(at(80)),
      ...prefixes(ADDRESS, BEFORE_WORD).map(at(80)),
    ],
  },
].slice(0, QUICK ? 1 : 3)

/** Rejects after `ms`: every wait on the service is bounded. */
const within = (promise, ms, what) =>
  Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`autocomplete bench: no ${what} in ${ms} ms`)))])

/** The autocomplete requests a client made: answered (and of them 429), and aborted on the way. */
function countRequests(client) {
  const c = { answered: 0, aborted: 0, tooMany: 0, waits: 0 }
  client.on('request', (e) => {
    if (e.path !== PATH) return
    if (e.errorCode === 'aborted') c.aborted++
    else c.answered++
    if (e.status === 429) c.tooMany++
  })
  client.on('rateLimitWait', (e) => void (e.service === 'maps' && c.waits++))
  return c
}

/** createAutocomplete with its defaults, on a client with its defaults (rate limiter and retries on). */
function storeWidget(client) {
  const ac = createAutocomplete(client)
  const seen = { degraded: new Set(), errors: 0 }
  ac.subscribe(() => {
    const s = ac.getSnapshot()
    if (s.degraded) seen.degraded.add(`${s.degraded.mode} (${s.degraded.reason})`)
    if (s.error) seen.errors++
  })
  return {
    seen,
    key: (value) => ac.setQuery(value),
    clear: () => ac.clear(),
    settled: () =>
      within(
        new Promise((resolve) => {
          const check = () => !['debouncing', 'loading'].includes(ac.getSnapshot().status) && (off(), resolve())
          const off = ac.subscribe(check)
          check()
        }),
        10_000,
        'answer',
      ),
    shown: () => ac.getSnapshot().suggestions,
    destroy: () => ac.destroy(),
  }
}

/** The naive widget: a request per keystroke, each answer shown as it arrives (the last to arrive wins). */
function naiveWidget(client) {
  const pending = new Set()
  let shown = []
  let errors = 0
  return {
    seen: {
      degraded: new Set(),
      get errors() {
        return errors
      },
    },
    key(value) {
      const call = autocompletePlaces(client, { input: value })
        .then((a) => void (shown = a.suggestions))
        .catch(() => void errors++)
        .finally(() => pending.delete(call))
      pending.add(call)
    },
    clear: () => void (shown = []),
    settled: () => within(Promise.allSettled([...pending]), 10_000, 'answers'),
    shown: () => shown,
    destroy: () => {},
  }
}

async function typeKeys(widget, keys) {
  for (const { value, ms } of keys) {
    widget.key(value)
    await sleep(ms)
  }
  await widget.settled()
}

const found = (widget, address) => {
  const top = widget.shown()[0]
  return top?.kind === 'address' && top.text.startsWith(`${address}, `)
}

/** Part 1: each typist once per contender, both at the same time, each on a client of its own. */
async function perAddress(emu, clients) {
  const rows = []
  for (const typist of TYPISTS) {
    const [store, naive] = await Promise.all(
      [storeWidget, naiveWidget].map(async (make, i) => {
        const client = clients[i]()
        const count = countRequests(client)
        const widget = make(client)
        await typeKeys(widget, typist.keys)
        widget.destroy()
        const final = typist.keys.at(-1).value
        // The store must show the address (the naive widget shows whichever answer arrived last).
        if (i === 0 && !found(widget, final))
          throw new Error(`autocomplete bench: "${final}" not suggested (${typist.name})`)
        return count
      }),
    )
    rows.push({ typist: typist.name, keys: typist.keys.length, store, naive })
  }
  return rows
}

/** Part 2: ten addresses, one every 6 s, on the free plan; the two contenders at once, each on its own emulator. */
async function minute(contenders) {
  return Promise.all(
    contenders.map(async ({ client, make }) => {
      const count = countRequests(client)
      const widget = make(client)
      const started = performance.now()
      let shown = 0
      for (const [i, address] of ADDRESSES.entries()) {
        widget.clear()
        await typeKeys(widget, prefixes(address).map(at(80)))
        if (found(widget, address)) shown++
        await sleep(started + (i + 1) * SLOT_MS - performance.now())
      }
      widget.destroy()
      return { count, shown, seen: widget.seen, wallMs: performance.now() - started }
    }),
  )
}

/** Part 3: one input, pasted into a fresh store (nothing cached): ms from the debounce firing to the suggestions shown. */
async function storeLatency(client, input) {
  const ac = createAutocomplete(client, { debounceMs: LATENCY_DEBOUNCE_MS })
  let fired
  const shown = new Promise((resolve, reject) => {
    ac.subscribe(() => {
      const s = ac.getSnapshot()
      if (s.status === 'loading') fired ??= performance.now()
      else if (s.status === 'success' && s.suggestions.length) resolve(performance.now())
      else if (s.status === 'error') reject(s.error)
    })
  })
  ac.setQuery(input)
  const end = await within(shown, 5_000, `suggestions for "${input}"`)
  ac.destroy()
  if (fired === undefined) throw new Error(`autocomplete bench: "${input}" answered without a request`)
  return end - fired
}

async function bareLatency(client, input) {
  const started = performance.now()
  const { suggestions } = await autocompletePlaces(client, { input })
  if (!suggestions.length) throw new Error(`autocomplete bench: no suggestion for "${input}"`)
  return performance.now() - started
}

async function latency(client) {
  // Every prefix of the ten addresses and a few streets with 3 letters of words or more (the store's minChars), each once.
  const seeds = [...ADDRESSES, ...MORE_STREETS]
  const inputs = [...new Set(seeds.flatMap((a) => prefixes(a)).filter((v) => v.replace(/^\d+\s*/, '').length >= 3))]
  const queries = []
  for (const input of inputs) {
    // Also the warm-up (JIT, sockets): the inputs the service has suggestions for.
    if ((await autocompletePlaces(client, { input })).suggestions.length) queries.push(input)
  }
  if (queries.length < LATENCY_QUERIES) throw new Error(`autocomplete bench: only ${queries.length} queries`)
  const samples = { store: [], bare: [] }
  for (const [i, input] of queries.slice(0, LATENCY_QUERIES).entries()) {
    // Alternated, so the machine's drift hits both alike.
    const order = i % 2 ? ['bare', 'store'] : ['store', 'bare']
    for (const who of order)
      samples[who].push(who === 'store' ? await storeLatency(client, input) : await bareLatency(client, input))
  }
  return samples
}

export async function run() {
  // Part 1 and 3 on an emulator without plan limits (we count requests, then time the client);
  // part 2 on the contract's free plan (maps: 100 per 60 s), one emulator per contender (a bucket each).
  const free = { plans: { support: false, realtime: false } }
  const emus = await Promise.all([spawnEmulator(), spawnEmulator(free), spawnEmulator(free)])
  const [open, freeStore, freeNaive] = emus
  const client = (emu, extra) =>
    createClient({
      baseUrl: emu.url,
      auth: { fetchToken: async () => ({ token: emu.token, expiresIn: 3_600 }) },
      ...extra,
    })
  const NAIVE = { retry: false, services: { maps: { rateLimit: false } } }
  try {
    const started = performance.now()
    const [typed, [store, naive]] = await Promise.all([
      perAddress(open, [() => client(open), () => client(open, NAIVE)]),
      minute([
        { client: client(freeStore), make: storeWidget },
        { client: client(freeNaive, NAIVE), make: naiveWidget },
      ]),
    ])
    const parallelMs = performance.now() - started
    const times = await latency(client(open, { services: { maps: { rateLimit: false } } }))
    return report(
      { typed, store, naive, times, parallelMs },
      { address: ADDRESS, addresses: ADDRESSES, slotMs: SLOT_MS, debounceMs: LATENCY_DEBOUNCE_MS },
    )
  } finally {
    await Promise.all(emus.map((e) => e.stop()))
  }
}
