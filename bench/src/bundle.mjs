// Bundle size: esbuild, minified, browser, ESM; gzip -9 and brotli 11, for realistic entry points
// of Tandem and, built the same way in the same run, of the peers a user would pick instead.
// The budgets here are also enforced by `npm test` (src/__tests__/budgets.test.ts).
import { build } from 'esbuild'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { table, fmt } from './stats.mjs'

const REACT = ['react', 'react-dom', 'react/jsx-runtime']

/** What a React app imports for REST lists, a mutation and a chat with presence. */
const HOOKS = 'TandemProvider, useResources, useResource, useMutation'
const RT_HOOKS = 'useChannel, usePresence, useConnectionState'

/**
 * What an app ships, per use case: the issue's goals (`target`), and a budget that `npm test`
 * enforces (the goal where we meet it, else a ratchet at today's size; docs/architecture.md,
 * "Bundle budgets"). Each is compared with the peers a user would pick for the same job.
 */
export const USE_CASES = [
  {
    name: 'maps-only REST app: createClient + maps (ofetch included)',
    source: `import { createClient } from '@tandem/core/client'; import { maps } from '@tandem/core/maps'; export const geocode = (o, q) => maps(createClient(o)).geocode(q)`,
    budget: 14_025, // 13.12 kB (issue 16): ofetch with ufo and destr is 9.7 kB of it before gzip; 13.48 kB with errors that name method, host and path (issue 18); +360 bytes (issue 27: no credential in a URL option, base URLs joined by URL); +65 bytes (issue 27: token answers that are not tokens are retried by realtime, unread token bodies cancelled)
    target: 9_000,
    peers: ['ofetch', 'ky'],
  },
  {
    name: 'realtime-only app: token provider + createRealtime (partysocket included)',
    source: `export { createRealtime } from '@tandem/realtime'`,
    budget: 15_055, // 12.15 kB (issue 16), partysocket 8.4 kB of it before gzip; 12.73 kB with errors that give their reason and where (issue 18); 12.95 kB with the `tabs` option's hook and a browser close read right (issue 20); 13.71 kB with the connection as a pure machine, its edges in one table and its effects as data (issue 26); 13.96 kB with two deadlines per request, a publish queued offline waits for the connection (issue 27, +266 bytes); +310 bytes (issue 27: no credential in a URL option, base URLs joined by URL); 14.57 kB (issue 27: held live messages bounded, +308 bytes); +115 bytes (issue 27: token answers that are not tokens are retried by realtime, unread token bodies cancelled); 14.74 kB: five token failures in a row say `unreachable` too (issue 27, +57 bytes); 14.84 kB: a sent request is never said to be unsent, token failures counted per request and said once per code and message (issue 27 review, +98 bytes); 14.90 kB: a positions factory may hand back plain-object channels (+58 bytes); 15.05 kB (issue 27: a failed gap read is retried with backoff, then a history_unavailable discontinuity, +157 bytes)
    target: 12_000,
    peers: [
      'pusher-js',
      'centrifuge',
      'ably/modular (BaseRealtime + WebSocketTransport + FetchRequest + RealtimePresence)',
      'socket.io-client',
      '@supabase/realtime-js',
    ],
  },
  {
    name: 'realtime app sharing one connection across tabs: createRealtime + shareAcrossTabs',
    source: `export { createRealtime } from '@tandem/realtime'; export { shareAcrossTabs } from '@tandem/realtime/tabs'`,
    budget: 20_475, // 17.11 kB (issue 20): the leader's hub, tab sockets, election, token relay, one in-band refresh per token and the presence grace add 4.2 kB to the realtime-only app; 17.87 kB with the connection machine (issue 26); 19.08 kB with tab sharing as small typed parts: the role from a pure reducer, election, relay and page lifecycle as modules, tab messages with named keys checked by one parser, client frames parsed into the contract types (issue 26, +1.22 kB); 19.35 kB with two deadlines per request (issue 27, +270 bytes); +310 bytes (issue 27: no credential in a URL option, base URLs joined by URL); 19.97 kB (issue 27: held live messages bounded, +312 bytes); +117 bytes (issue 27: token answers that are not tokens are retried by realtime, unread token bodies cancelled); 20.15 kB (issue 27: token unreachable, +62 bytes); 20.26 kB (issue 27 review, +106 bytes); 20.31 kB (positions of either shape); 20.48 kB (issue 27: a failed gap read is retried with backoff, then a history_unavailable discontinuity, +166 bytes)
    target: 14_000,
    peers: [],
  },
  {
    name: 'React app: useResources (live) + useChannel (react external)',
    source: `import { createClient } from '@tandem/core/client'; export { createClient }; export { createRealtime } from '@tandem/realtime'; export { TandemProvider, useResources } from '@tandem/react'; export { useChannel } from '@tandem/react/realtime'`,
    external: REACT,
    budget: 31_440, // 26.69 kB (issue 16); 27.91 kB with live lists placed by order and filters, call queries, queue events (issue 17); 28.72 kB (issue 18); 28.93 kB (issue 20); 28.96 kB (issue 25: rateLimitWait says why); 29.17 kB (issue 26: cache entries change through named actions, one reducer); 29.90 kB (issue 26: the connection machine); 29.92 kB (issue 26: frame checks generated from the contract's AsyncAPI, the idempotency rule from the contract: +38 bytes); 30.20 kB (issue 27: two deadlines per request, +288 bytes); +400 bytes (issue 27: no credential in a URL option, base URLs joined by URL); 30.92 kB (issue 27: held live messages bounded, +326 bytes); +90 bytes (issue 27: token answers that are not tokens are retried by realtime, unread token bodies cancelled); 31.10 kB (issue 27: token unreachable, +69 bytes); 31.12 kB (issue 27: query and header names like __proto__ kept, +19 bytes); 31.22 kB (issue 27 review, +102 bytes); 31.27 kB (positions of either shape); 31.44 kB (issue 27: a failed gap read is retried with backoff, then a history_unavailable discontinuity, +164 bytes)
    target: 21_000,
    peers: ['pusher-js + @tanstack/react-query (react external)', 'pusher-js + swr (react external)'],
  },
  {
    name: 'whole SDK, everything (react external)',
    source: `export { createClient, isTandemError, bindLiveResources } from '@tandem/core'; export { createRealtime } from '@tandem/realtime'; export { ${HOOKS} } from '@tandem/react'; export { ${RT_HOOKS} } from '@tandem/react/realtime'`,
    external: REACT,
    budget: 35_055, // 27.91 kB (issue 13), 29.61 kB (issue 14), 30.01 kB (issue 16), 31.21 kB (issue 17), 32.05 kB (issue 18), 32.25 kB (resume after reload, presence sync retried), 32.34 kB (issue 20), 32.38 kB (issue 25: useMessages, rateLimitWait reason), 32.56 kB (issue 26: cache entry actions), 33.34 kB (issue 26: the connection machine), 33.35 kB (issue 26: frame checks generated from the contract's AsyncAPI, the idempotency rule from the contract: +20 bytes), 33.61 kB (issue 27: two deadlines per request, +280 bytes); +410 bytes (issue 27: no credential in a URL option, base URLs joined by URL); 34.33 kB (issue 27: held live messages bounded, +331 bytes); 34.55 kB (issue 27: presence scales, a member table keyed by connectionId, one snapshot per frame, events behind the answer replayed: +217 bytes); +99 bytes (issue 27: token answers that are not tokens are retried by realtime, unread token bodies cancelled); 34.66 kB with Maps for the positions, the tab shapes and the provider table (issue 27, fault 6: +8 bytes), 34.73 kB (issue 27: token unreachable, +74 bytes), 34.75 kB (issue 27: __proto__ names kept, +14 bytes), 34.85 kB (issue 27 review, +101 bytes), 34.91 kB (positions of either shape); 35.05 kB (issue 27: a failed gap read is retried with backoff, then a history_unavailable discontinuity, +143 bytes)
    target: 24_000,
    peers: ['the stack Tandem replaces: pusher-js + @tanstack/react-query + ky'],
  },
]

/** Each package alone, its siblings external: what one package adds. */
const PACKAGES = [
  {
    name: '@tandem/core (createClient with every service, + errors)',
    source: `export { createClient, isTandemError } from '@tandem/core'`,
    budget: 18_695, // 15.75 kB on ofetch 1.5 (issue 13), 17.07 kB (issue 14), 17.19 kB (issue 15), 17.76 kB (issue 17), 18.22 kB (issue 26: cache entry actions), 18.24 kB (issue 26: the idempotency rule and its sentence from the contract); 18.25 kB with the latitude and longitude bounds from the contract (+4 bytes gzip, issue 26); +360 bytes (issue 27: no credential in a URL option, base URLs joined by URL); +72 bytes (issue 27: token answers that are not tokens are retried by realtime, unread token bodies cancelled); 18.69 kB (issue 27: query and header names like __proto__ kept, +16 bytes)
    target: 7_000,
  },
  {
    name: '@tandem/realtime (createRealtime; core external)',
    source: `export { createRealtime } from '@tandem/realtime'`,
    external: ['@tandem/core', '@tandem/core/internal'],
    budget: 12_290, // 9.43 kB on partysocket 1.3 (issue 13), 9.83 kB (issue 14), 9.87 kB (issue 15), 10.28 kB (issue 18), 10.50 kB (issue 20), 11.26 kB (issue 26: the connection machine), 11.51 kB (issue 27: two deadlines per request); +50 bytes (issue 27: no credential in a URL option, base URLs joined by URL); 11.88 kB (issue 27: held live messages bounded, +313 bytes); +29 bytes (issue 27: token answers that are not tokens are retried by realtime, unread token bodies cancelled), 11.96 kB (issue 27: token unreachable), 12.06 kB (issue 27 review), 12.12 kB (positions of either shape); 12.29 kB (issue 27: a failed gap read is retried with backoff, then a history_unavailable discontinuity, +171 bytes)
    target: 6_000,
  },
  {
    name: '@tandem/react (the hooks; core, realtime, react external)',
    source: `export { ${HOOKS} } from '@tandem/react'; export { ${RT_HOOKS} } from '@tandem/react/realtime'`,
    external: ['@tandem/core', '@tandem/realtime', ...REACT],
    budget: 1_850, // 1.62 kB (issue 13); 1.80 kB with the cache made on first use and the modular guard (issue 16)
    target: 3_000,
  },
]

/** Every Tandem entry with a budget (npm test). */
export const TANDEM = [...USE_CASES, ...PACKAGES]

const PEERS = [
  { name: 'pusher-js', source: `export { default } from 'pusher-js'` },
  { name: 'ably (full: Realtime)', source: `export { Realtime } from 'ably'` },
  {
    name: 'ably/modular (BaseRealtime + WebSocketTransport + FetchRequest + RealtimePresence)',
    source: `export { BaseRealtime, WebSocketTransport, FetchRequest, RealtimePresence } from 'ably/modular'`,
  },
  { name: 'centrifuge', source: `export { Centrifuge } from 'centrifuge'` },
  { name: 'socket.io-client', source: `export { io } from 'socket.io-client'` },
  { name: '@supabase/realtime-js', source: `export { RealtimeClient } from '@supabase/realtime-js'` },
  {
    name: '@tanstack/react-query (provider, useQuery, useMutation; react external)',
    source: `export { QueryClient, QueryClientProvider, useQuery, useMutation } from '@tanstack/react-query'`,
    external: REACT,
  },
  {
    name: 'swr (useSWR + SWRConfig + useSWRMutation; react external)',
    source: `export { default, SWRConfig } from 'swr'; export { default as useSWRMutation } from 'swr/mutation'`,
    external: REACT,
  },
  { name: 'ofetch', source: `export { ofetch } from 'ofetch'` },
  { name: 'ky', source: `export { default } from 'ky'` },
  {
    name: 'pusher-js + @tanstack/react-query (react external)',
    source: `export { default as Pusher } from 'pusher-js'; export { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'`,
    external: REACT,
  },
  {
    name: 'pusher-js + swr (react external)',
    source: `export { default as Pusher } from 'pusher-js'; export { default as useSWR } from 'swr'`,
    external: REACT,
  },
  {
    name: 'the stack Tandem replaces: pusher-js + @tanstack/react-query + ky',
    source: `export { default as Pusher } from 'pusher-js'; export { QueryClient, QueryClientProvider, useQuery, useMutation } from '@tanstack/react-query'; export { default as ky } from 'ky'`,
    external: REACT,
  },
]

/** Bytes of one entry, minified, gzip -9 and brotli 11. `conditions` lets tests measure `src`. */
export async function measure(source, { external = [], conditions = [] } = {}) {
  const result = await build({
    stdin: { contents: source, resolveDir: new URL('.', import.meta.url).pathname, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    external,
    conditions,
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
  })
  const code = result.outputFiles[0].contents
  const inputs = Object.values(result.metafile.outputs)[0].inputs
  return {
    /** The biggest modules, minified bytes before gzip: where the next saving is. */
    modules: Object.entries(inputs)
      .map(([path, { bytesInOutput }]) => [shortPath(path), bytesInOutput])
      .sort((a, b) => b[1] - a[1]),
    min: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}

const kb = (bytes) => fmt(bytes / 1000, 2)

/** `../../node_modules/ofetch/dist/x.mjs` → `ofetch/dist/x.mjs`; `../../packages/core/src/http.ts` → `core/src/http.ts`. */
const shortPath = (path) => path.replace(/^.*node_modules\//, '').replace(/^.*packages\//, '')

export async function run() {
  const sizes = {}
  const measured = {}
  for (const e of [...TANDEM, ...PEERS]) {
    measured[e.name] = await measure(e.source, { external: e.external })
    sizes[e.name] = measured[e.name].gzip
  }
  const row = (e, label = e.name) => {
    const s = measured[e.name]
    const budget = e.budget ? `${kb(e.budget)}${e.target !== e.budget ? ` (goal ${kb(e.target)})` : ''}` : ''
    return [label, kb(s.min), `**${kb(s.gzip)}**`, kb(s.brotli), budget]
  }
  const peer = (name) => PEERS.find((p) => p.name === name)
  const useCases = USE_CASES.flatMap((u) => [
    row(u),
    ...u.peers.map((p) => row(peer(p), `  peer: ${p} (${fmt(sizes[u.name] / sizes[p], 2)}×)`)),
  ])
  const header = ['entry', 'min', 'min+gzip', 'min+brotli', 'budget (min+gzip)']
  const report = USE_CASES.map(
    (u) =>
      `- **${u.name}**: ${measured[u.name].modules
        .slice(0, 6)
        .map(([path, bytes]) => `${path} ${kb(bytes)}`)
        .join(', ')}`,
  ).join('\n')
  const met = (e) => (sizes[e.name] <= e.target ? 'met' : `missed by ${kb(sizes[e.name] - e.target)} kB`)
  return {
    figures: {
      sizes: USE_CASES.map((u) => ({
        name: u.name,
        gzip: sizes[u.name],
        goal: u.target,
        peers: u.peers.map((p) => ({ name: p, gzip: sizes[p] })),
      })),
    },
    title: 'Bundle size (esbuild --bundle --minify, browser, ESM, NODE_ENV=production; kB = 1,000 bytes)',
    body:
      '### Per use case, each beside its peers (ratio: Tandem over the peer)\n\n' +
      table(header, useCases) +
      `\n\nGoals: ${USE_CASES.map((u) => `${u.name.split(':')[0]} ${met(u)}`).join('; ')}.` +
      '\n\n### Each package alone\n\n' +
      table(
        header,
        PACKAGES.map((p) => row(p)),
      ) +
      '\n\n### Other peers\n\n' +
      table(
        header,
        PEERS.filter((p) => !USE_CASES.some((u) => u.peers.includes(p.name))).map((p) => row(p)),
      ) +
      '\n\n### The biggest modules per use case (minified kB before gzip)\n\n' +
      report +
      '\n\nBudgets are enforced by `npm test` (bench/src/__tests__/budgets.test.ts). Where a budget differs from the goal, the goal is missed; docs/architecture.md ("Bundle budgets") says by how much and what stands in the way.',
  }
}
