// Exact counts, not timings: token fetches and requests under concurrency, and React renders per
// data change, for @tandem/react beside TanStack Query and SWR against one emulator.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { createClient } from '@tandem/core'
import { createRealtime } from '@tandem/realtime'
import WebSocket from 'ws'
import { table } from './stats.mjs'

const LIST = '/support/v1/resources'
const TIMEOUT_MS = 10_000
const QUIET_MS = 100 // no render for this long: a trailing render (e.g. isFetching turning off) would have come

// The emulator, and the burst's publisher, in their own process: in ours, the hub's fan-out would
// hold the event loop for the whole burst and the client would see it as one lump (one render).
const CHILD = `
import { createInterface } from 'node:readline'
import { startEmulator } from '@tandem/emulator'
import { createRealtime } from '@tandem/realtime'
import WebSocket from 'ws'
const emu = await startEmulator({ plans: { maps: false, support: false, realtime: false }, realtime: { publishRate: { limit: 100000, intervalMs: 1000 } } })
const fetchToken = async () => ({ token: await emu.mintToken({ subject: 'other', scope: ['realtime'] }), expiresIn: 600 })
const pub = createRealtime({ auth: { fetchToken }, url: emu.url + '/realtime' }, { WebSocket, maxQueued: 2000 })
await pub.channel('warm').publish('n', 0) // connected before the burst, so the burst is only the burst
console.log(JSON.stringify({ url: emu.url }))
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'burst') await Promise.all(Array.from({ length: 1000 }, (_, i) => pub.channel('burst').publish('n', i)))
}
pub.close()
await emu.close()`

async function spawnEmulator() {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const timer = setTimeout(() => child.kill(), TIMEOUT_MS)
  const [line] = await once(createInterface({ input: child.stdout }), 'line').finally(() => clearTimeout(timer))
  const stop = async () => {
    const kill = setTimeout(() => child.kill(), 5_000) // ending stdin closes it; this only if that hangs
    child.stdin.end()
    if (child.exitCode === null) await once(child, 'exit').finally(() => clearTimeout(kill))
  }
  return { url: JSON.parse(line).url, burst: () => child.stdin.write('burst\n'), stop }
}

/** A fetch that counts requests by path; each contender gets its own, so nothing else is counted. */
function counting() {
  const paths = []
  const fetch = (input, init) => (paths.push(new URL(input.url ?? input).pathname), globalThis.fetch(input, init))
  return { fetch, count: (path) => paths.filter((p) => p === path).length }
}

/** Bounded wait on a condition, polled as testing-library's waitFor does. */
async function until(check, what, ms = TIMEOUT_MS) {
  const deadline = performance.now() + ms
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`counts: timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

// Every counted component calls rendered(), so "quiet" means React had nothing left to render.
let lastRender = 0
const rendered = () => {
  lastRender = performance.now()
}
const quiet = () => until(() => performance.now() - lastRender >= QUIET_MS, 'renders to settle')

/** happy-dom for react-dom. React, SWR and the bindings are imported after it: they look for `window` at load. */
async function withDom(fn) {
  const { Window } = await import('happy-dom')
  const win = new Window({ url: 'http://localhost/' })
  const had = {
    window: globalThis.window,
    document: globalThis.document,
    navigator: globalThis.navigator,
    IS_REACT_ACT_ENVIRONMENT: globalThis.IS_REACT_ACT_ENVIRONMENT,
  }
  // React's own scheduler, not act(): act batches every update in its scope into one flush,
  // which would hide renders an app does see.
  Object.assign(globalThis, {
    window: win,
    document: win.document,
    navigator: win.navigator,
    IS_REACT_ACT_ENVIRONMENT: false,
  })
  const roots = []
  try {
    const { createElement } = await import('react')
    const { createRoot } = await import('react-dom/client')
    const mount = (el) => {
      const root = createRoot(win.document.body.appendChild(win.document.createElement('div')))
      roots.push(root)
      root.render(el)
    }
    return await fn({ h: createElement, mount })
  } finally {
    for (const root of roots) root.unmount()
    // React's scheduler still runs work the unmount queued (it reads window.event): let it, then restore.
    await new Promise((resolve) => setTimeout(resolve, 50))
    for (const [k, v] of Object.entries(had)) {
      if (v === undefined) delete globalThis[k]
      else globalThis[k] = v
    }
    await win.happyDOM.close()
  }
}

export async function run() {
  const emu = await spawnEmulator()
  const closers = []
  try {
    // 1. 100 concurrent calls with no token yet: the token fetch should be shared.
    let tokenFetches = 0
    const c1 = counting()
    const fetchToken = async () => {
      tokenFetches++
      return (await c1.fetch(`${emu.url}/dev/token`, { method: 'POST' })).json()
    }
    const cold = createClient({ baseUrl: emu.url, fetch: c1.fetch, auth: { fetchToken } })
    const ok = (
      await Promise.allSettled(Array.from({ length: 100 }, () => cold.support.resources.list({ limit: 1 })))
    ).filter((r) => r.status === 'fulfilled').length

    const { token } = await (await fetch(`${emu.url}/dev/token`, { method: 'POST' })).json()
    // Server-side changes go through a client of their own, outside every cache measured.
    const writer = createClient({ baseUrl: emu.url, auth: { fetchToken: async () => ({ token, expiresIn: 600 }) } })
    const tandem = () => {
      const c = counting()
      const client = createClient({ baseUrl: emu.url, fetch: c.fetch, auth: { url: `${emu.url}/dev/token` } })
      closers.push(() => client.cache.clear()) // with a window, entries hold gc timers
      return { c, client }
    }
    let renames = 0
    const out = await withDom(async ({ h, mount }) => {
      const { TandemProvider, useResources } = await import('@tandem/react')
      const { useChannel } = await import('@tandem/react/realtime')
      const { QueryClient, QueryClientProvider, useQuery } = await import('@tanstack/react-query')
      const { default: useSWR, SWRConfig } = await import('swr')
      // The peers: native fetch, the token above, a fresh cache each.
      const peer = (kind) => {
        const c = counting()
        const get = (path) => async () =>
          (await c.fetch(`${emu.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()
        if (kind === 'swr')
          return { c, get, wrap: (...k) => h(SWRConfig, { value: { provider: () => new Map() } }, ...k) }
        const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
        closers.push(() => qc.clear())
        return { c, get, qc, wrap: (...k) => h(QueryClientProvider, { client: qc }, ...k) }
      }
      const out = {}

      // 2. 50 components mount the same list in one render: list requests until all 50 show data.
      const fifty = async (wrap, useData) => {
        const ready = new Set()
        const Row = ({ n }) => {
          if (useData()) ready.add(n)
          return null
        }
        mount(wrap(...Array.from({ length: 50 }, (_, n) => h(Row, { key: n, n }))))
        await until(() => ready.size === 50, '50 rows with data')
      }
      {
        const t = tandem()
        await fifty(
          (...k) => h(TandemProvider, { client: t.client }, ...k),
          () => useResources('support/resources', { limit: 5 }).status === 'success',
        )
        const q = peer('query')
        await fifty(
          q.wrap,
          () => useQuery({ queryKey: ['support/resources', { limit: 5 }], queryFn: q.get(`${LIST}?limit=5`) }).data,
        )
        const s = peer('swr')
        await fifty(s.wrap, () => useSWR(`${LIST}?limit=5`, s.get(`${LIST}?limit=5`)).data)
        out.fifty = { tandem: t.c.count(LIST), query: q.c.count(LIST), swr: s.c.count(LIST) }
      }

      // 3. A list's component and one on another collection, each reading only its data. One rename on
      // the server, then `change()`; renders counted from the rename until 100 ms without a render.
      const perChange = async ({ c, wrap, useList, useOther, ready, change }) => {
        const n = { list: 0, other: 0 }
        let items = []
        const List = () => {
          rendered()
          n.list++
          items = useList() ?? []
          return null
        }
        const Other = () => {
          rendered()
          n.other++
          useOther()
          return null
        }
        mount(wrap(h(List), h(Other)))
        await until(() => items.length > 0 && ready(), 'both lists')
        await quiet()
        n.list = n.other = 0
        const before = c.count(LIST)
        const [{ id }, name] = [items[0], `renamed ${++renames}`]
        await writer.support.resources.update(id, { name })
        await change()
        await until(() => items.find((x) => x.id === id)?.name === name, 'the rename to show')
        await quiet()
        return { ...n, requests: c.count(LIST) - before }
      }
      const tandemChange = async (live) => {
        const { c, client } = tandem()
        const realtime = live ? createRealtime({ client }, { WebSocket }) : undefined
        if (realtime) closers.push(() => realtime.close())
        const snap = (service) =>
          client.cache.get({ service, collection: 'resources', params: { limit: 3 } }).getSnapshot()
        const idle = (service) => snap(service).status === 'success' && !snap(service).isFetching
        return perChange({
          c,
          wrap: (...k) => h(TandemProvider, { client, realtime }, ...k),
          useList: () => useResources('support/resources', { limit: 3 }, { live }).items,
          useOther: () => useResources('maps/resources', { limit: 3 }),
          // Live: subscribed, and the catch-up refetch that follows the subscription done.
          ready: () =>
            idle('support') && idle('maps') && (!live || realtime.channel('support:resources').state === 'subscribed'),
          change: () => (live ? undefined : client.cache.invalidate({ service: 'support', collection: 'resources' })),
        })
      }
      out.refetch = await tandemChange(false)
      out.live = await tandemChange(true)
      const q = peer('query')
      const otherKey = ['maps/resources', { limit: 3 }]
      out.refetch.query = await perChange({
        c: q.c,
        wrap: q.wrap,
        useList: () =>
          useQuery({ queryKey: ['support/resources', { limit: 3 }], queryFn: q.get(`${LIST}?limit=3`) }).data?.data,
        useOther: () => useQuery({ queryKey: otherKey, queryFn: q.get('/maps/v1/resources?limit=3') }),
        ready: () => q.qc.isFetching() === 0 && q.qc.getQueryData(otherKey) !== undefined,
        change: () => q.qc.invalidateQueries({ queryKey: ['support/resources'] }),
      })
      const s = peer('swr')
      let mutate, other
      out.refetch.swr = await perChange({
        c: s.c,
        wrap: s.wrap,
        // Only `data` is read, so SWR's dependency tracking skips isValidating, as TanStack's skips isFetching.
        useList: () => {
          const r = useSWR(`${LIST}?limit=3`, s.get(`${LIST}?limit=3`))
          mutate = r.mutate
          return r.data?.data
        },
        useOther: () => {
          other = useSWR('/maps/v1/resources?limit=3', s.get('/maps/v1/resources?limit=3')).data
        },
        ready: () => other !== undefined,
        change: () => mutate(),
      })

      // 4. 1,000 messages published at once (by another connection) on a channel one component keeps 1,000 of.
      {
        const { client } = tandem()
        const realtime = createRealtime({ client }, { WebSocket })
        closers.push(() => realtime.close())
        let renders = 0
        let view = { state: '', n: 0 }
        const Burst = () => {
          rendered()
          renders++
          const { state, messages } = useChannel('burst', undefined, { keep: 1_000 })
          return void (view = { state, n: messages.length })
        }
        mount(h(TandemProvider, { client, realtime }, h(Burst)))
        await until(() => view.state === 'subscribed', 'the channel')
        await quiet()
        const arrivals = []
        closers.push(realtime.channel('burst').subscribe(() => arrivals.push(performance.now())))
        renders = 0
        emu.burst()
        await until(() => view.n === 1_000, '1,000 messages')
        await quiet()
        out.burst = { renders, spanMs: arrivals.at(-1) - arrivals[0] }
      }
      return out
    })

    const { fifty, refetch, live, burst } = out
    const b = (n) => `**${n}**`
    return {
      title: 'Counts: requests and React renders (exact, one run)',
      body:
        table(
          ['measure', 'Tandem', 'TanStack Query 5', 'SWR 2', 'note'],
          [
            [
              'Token fetches, 100 concurrent `list()` calls with no token yet',
              b(tokenFetches),
              '—',
              '—',
              `${c1.count('/dev/token')} token request + ${c1.count(LIST)} list requests on the wire; ${ok}/100 succeeded`,
            ],
            [
              'List requests, 50 components mounting the same list at once',
              b(fifty.tandem),
              fifty.query,
              fifty.swr,
              'counted until all 50 show data; `useResources` / `useQuery` / `useSWR`, same key',
            ],
            [
              'Renders per data change: server rename, then invalidate',
              b(refetch.list),
              refetch.query.list,
              refetch.swr.list,
              `${refetch.requests} / ${refetch.query.requests} / ${refetch.swr.requests} refetch request(s); invalidate is \`client.cache.invalidate\` / \`invalidateQueries\` / bound \`mutate()\``,
            ],
            [
              'Renders per data change: server rename, `live: true` list',
              b(live.list),
              '—',
              '—',
              `${live.requests} requests: the change event patches the cache`,
            ],
            [
              'Renders of a component on another collection, for those changes',
              b(`${refetch.other}, ${live.other}`),
              refetch.query.other,
              refetch.swr.other,
              'a `maps/resources` list mounted beside the changed one',
            ],
            [
              'Renders during a burst of 1,000 channel messages',
              b(burst.renders),
              '—',
              '—',
              `\`useChannel(…, { keep: 1000 })\`; the messages arrived over ${Math.round(burst.spanMs)} ms`,
            ],
          ],
        ) +
        '\n\nGoals: 1 token fetch however many calls wait for it; 1 request however many components mount one list;' +
        ' 1 render per data change, and 0 for a component whose data did not change; during a burst, renders bounded by frames' +
        ' (at most one per ~16 ms; Node has no requestAnimationFrame, so a 16 ms timer), not one per message.' +
        "\n\nMethod: React 19 on happy-dom, React's own scheduler (no `act`, which would batch renders away); the emulator" +
        " and the burst's publisher in a child process. Renders are counted in the component from the server-side rename" +
        ' (or the first publish) until 100 ms pass without a render; every component reads only its data' +
        " (`items` / `data`), so all three libraries' render tracking skips the `isFetching` / `isValidating` flips" +
        ' (a component that reads `isFetching` renders twice more per refetch, in each library).',
    }
  } finally {
    for (const close of closers.reverse()) await close()
    await emu.stop()
  }
}
