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
 * Tandem's entries: [name, source, packages left out, budget in bytes of min+gzip (kB = 1,000 B)].
 * The budgets are the issue's targets where we meet them and a ratchet at today's size where we
 * do not (docs/architecture.md, "Bundle budgets"); `target` is the issue's figure.
 */
export const TANDEM = [
  {
    name: '@tandem/core (createClient + errors)',
    source: `export { createClient, isTandemError } from '@tandem/core'`,
    budget: 17_500, // 15.75 kB on ofetch 1.5 (issue 13), 17.07 kB with deadlines, size cap, redirects (issue 14), + 2.5 %
    target: 7_000,
  },
  {
    name: '@tandem/realtime (createRealtime; core external)',
    source: `export { createRealtime } from '@tandem/realtime'`,
    external: ['@tandem/core'],
    budget: 10_100, // 9.43 kB on partysocket 1.3 (issue 13), 9.83 kB with clamps and frame checks (issue 14), + 2.7 %
    target: 6_000,
  },
  {
    name: '@tandem/react (the hooks; core, realtime, react external)',
    source: `export { ${HOOKS} } from '@tandem/react'; export { ${RT_HOOKS} } from '@tandem/react/realtime'`,
    external: ['@tandem/core', '@tandem/realtime', ...REACT],
    budget: 1_670, // 1.62 kB measured (issue 13), + 3 %
    target: 3_000,
  },
  {
    name: 'whole SDK (createClient + createRealtime + bindLiveResources + the hooks; react external)',
    source: `export { createClient, isTandemError, bindLiveResources } from '@tandem/core'; export { createRealtime } from '@tandem/realtime'; export { ${HOOKS} } from '@tandem/react'; export { ${RT_HOOKS} } from '@tandem/react/realtime'`,
    external: REACT,
    budget: 30_400, // 27.91 kB (issue 13), 29.61 kB (issue 14), + 2.7 %
    target: 15_000,
  },
]

/** Tandem as a user of one part ships it: the realtime client with the core it needs. */
const TANDEM_FAIR = [
  {
    name: '@tandem/realtime + @tandem/core (what a realtime-only user ships)',
    source: `export { createClient } from '@tandem/core'; export { createRealtime } from '@tandem/realtime'`,
  },
]

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
  })
  const code = result.outputFiles[0].contents
  return {
    min: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}

const kb = (bytes) => fmt(bytes / 1000, 2)

export async function run() {
  const rows = []
  const sizes = {}
  for (const e of [...TANDEM, ...TANDEM_FAIR, ...PEERS]) {
    const s = await measure(e.source, { external: e.external })
    sizes[e.name] = s.gzip
    const budget = e.budget ? `${kb(e.budget)}${e.target !== e.budget ? ` (target ${kb(e.target)})` : ''}` : ''
    rows.push([e.name, kb(s.min), `**${kb(s.gzip)}**`, kb(s.brotli), budget])
  }
  const whole = sizes[TANDEM[3].name]
  const ratio = (peer) => fmt(whole / sizes[peer], 2)
  return {
    title: 'Bundle size (esbuild --bundle --minify, browser, ESM, NODE_ENV=production; kB = 1,000 bytes)',
    body:
      table(['entry', 'min', 'min+gzip', 'min+brotli', 'budget (min+gzip)'], rows) +
      `\n\nThe whole SDK is **${ratio('pusher-js')}×** pusher-js alone, **${ratio('ably/modular (BaseRealtime + WebSocketTransport + FetchRequest + RealtimePresence)')}×** ably/modular, **${ratio('centrifuge')}×** centrifuge,` +
      ` **${ratio('socket.io-client')}×** socket.io-client, and **${ratio('the stack Tandem replaces: pusher-js + @tanstack/react-query + ky')}×** the pusher-js + TanStack Query + ky stack.` +
      '\n\nBudgets are enforced by `npm test` (bench/src/__tests__/budgets.test.ts). Where a budget differs from the target, the target is missed; docs/architecture.md ("Bundle budgets") says by how much and what stands in the way.',
  }
}
