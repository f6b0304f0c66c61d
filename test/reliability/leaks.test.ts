// @vitest-environment happy-dom
// Leaks: 1,000 StrictMode mount/unmount cycles of components using `useChannel` and
// `useResources({ live: true })` over 25 channels and 10 queries, and 1,000 connect/close cycles
// of a realtime client closed at every stage (before its token, mid-handshake, connected). After
// each run everything must be back to its baseline, counted: open sockets at the emulator, live
// timers (every setTimeout/setInterval in the process, wrapped), window and document listeners,
// leases, channel listeners and cache entries. Timers and listeners are attributed by their
// creation stack: the SDK's (core, realtime, react) are counted, the emulator's and React DOM's not.
import { createClient, type TandemClient } from '@tandem/core'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { TandemProvider, useResources } from '@tandem/react'
import { useChannel } from '@tandem/react/realtime'
import { createRealtime, leasedChannels, type Realtime } from '@tandem/realtime'
import { cleanup, render } from '@testing-library/react'
import { createElement as h, StrictMode, type ReactNode } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { between, mulberry32, printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { waitUntil } from '../utils/wait.js'

// Under happy-dom, `ws` resolves to its browser stub; the emulator (Node) and the client need the real one.
vi.mock('ws', async () => {
  const { createRequire } = await import('node:module')
  const ws = createRequire(import.meta.url)('ws') as Record<string, unknown>
  return { ...ws, default: ws }
})

const FILE = 'leaks'
const SEED = seedFrom(0x1ea4)
const at = replay(SEED, FILE)
const CYCLES = Number(process.env.LEAK_CYCLES ?? 1_000)

// ---- Counting timers and listeners by wrapping the globals ------------------------------------

/** Live timers created by SDK code (core, realtime, react), by handle: the emulator's own are not counted. */
const live = new Map<unknown, string>()
const SDK = /\/packages\/(core|realtime|react)\/src\//
/**
 * Where the timer or listener was created, when SDK code created it itself: the frame right
 * after our wrapper (a library the SDK calls, such as `ws` closing a socket, is not the SDK).
 */
function origin(): string | undefined {
  const caller = (new Error().stack ?? '').split('\n')[3]
  return caller && SDK.test(caller) ? caller.trim() : undefined
}
const originals = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
}
const listeners = new Map<EventTarget, Map<string, Set<unknown>>>()
const adders: [EventTarget, EventTarget['addEventListener'], EventTarget['removeEventListener']][] = []

function countGlobals() {
  const g = globalThis as Record<string, unknown>
  g.setTimeout = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const handle = originals.setTimeout(() => {
      live.delete(handle)
      fn(...args)
    }, ms)
    const from = origin()
    if (from) live.set(handle, from)
    return handle
  }
  g.clearTimeout = (h: unknown) => {
    live.delete(h)
    originals.clearTimeout(h as never)
  }
  g.setInterval = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const handle = originals.setInterval(fn, ms, ...args)
    const from = origin()
    if (from) live.set(handle, from)
    return handle
  }
  g.clearInterval = (h: unknown) => {
    live.delete(h)
    originals.clearInterval(h as never)
  }
  for (const target of [window, document] as EventTarget[]) {
    const add = target.addEventListener
    const remove = target.removeEventListener
    adders.push([target, add, remove])
    const byType = new Map<string, Set<unknown>>()
    listeners.set(target, byType)
    target.addEventListener = function (type: string, listener: unknown, options?: unknown) {
      // The SDK's listeners only (React DOM keeps a global `selectionchange` listener for good).
      if (listener && origin()) (byType.get(type) ?? byType.set(type, new Set()).get(type)!).add(listener)
      return add.call(this, type, listener as never, options as never)
    }
    target.removeEventListener = function (type: string, listener: unknown, options?: unknown) {
      byType.get(type)?.delete(listener)
      return remove.call(this, type, listener as never, options as never)
    }
  }
}

function restoreGlobals() {
  Object.assign(globalThis, originals)
  for (const [target, add, remove] of adders.splice(0)) {
    target.addEventListener = add
    target.removeEventListener = remove
  }
}

const timerCount = () => live.size
const listenerTypes = () =>
  [...listeners.values()]
    .flatMap((byType) => [...byType].flatMap(([type, set]) => [...set].map(() => type)))
    .sort()
    .join(',')
const listenerCount = () =>
  [...listeners.values()].reduce((n, byType) => n + [...byType.values()].reduce((m, s) => m + s.size, 0), 0)

interface Baseline {
  timers: number
  listeners: number
  sockets: number
}

// ---- Set-up -----------------------------------------------------------------------------------

let emu: Emulator
beforeAll(async () => {
  countGlobals()
  emu = await startEmulator({ seed: SEED, host: '127.0.0.1', port: 0, plans: { support: { limit: 100_000 } } })
})
afterAll(async () => {
  await emu.close()
  restoreGlobals()
})
const closers: (() => unknown)[] = []
afterEach(async () => {
  cleanup()
  for (const c of closers.splice(0).reverse()) await c()
})

function makeClient(): TandemClient {
  const client = createClient({
    baseUrl: emu.url,
    auth: { fetchToken: async () => ({ token: await emu.mintToken(), expiresIn: 600 }) },
    services: { support: { rateLimit: false } },
    cache: { gcTime: 50 },
  })
  closers.push(() => client.cache.clear())
  return client
}

async function settle(base: Baseline, what: string, extra: () => boolean = () => true) {
  const state = () =>
    `timers ${timerCount()}/${base.timers} [${[...live.values()].join(' ; ')}], listeners [${listenerTypes()}]/${base.listeners}, ` +
    `sockets ${emu.realtime.stats.connections.open}/${base.sockets}`
  await waitUntil(
    () =>
      extra() &&
      timerCount() <= base.timers &&
      listenerCount() <= base.listeners &&
      emu.realtime.stats.connections.open <= base.sockets,
    {
      timeoutMs: 15_000,
      what: { toString: () => `${what} back to baseline: ${state()}; ${at}` } as unknown as string,
    },
  ).catch((e: Error) => {
    throw new Error(`${e.message} (now ${state()})`)
  })
  // At most the baseline: on a busy machine the baseline may hold a previous test's last timers,
  // gone by the end (a leak is more timers, never fewer).
  expect(timerCount(), `timers: ${state()}; ${at}`).toBeLessThanOrEqual(base.timers)
  expect(listenerCount(), `window/document listeners: ${state()}; ${at}`).toBe(base.listeners)
  expect(emu.realtime.stats.connections.open, `open sockets at the emulator; ${at}`).toBe(base.sockets)
}

const baseline = (): Baseline => ({
  timers: timerCount(),
  listeners: listenerCount(),
  sockets: emu.realtime.stats.connections.open,
})

describe('leaks', () => {
  it(`${CYCLES} StrictMode mount/unmount cycles of useChannel and useResources (live) over 25 channels and 10 queries leave nothing behind`, async () => {
    printSeedOnFailure(SEED, FILE)
    const client = makeClient()
    const rt: Realtime = createRealtime({ client }, { WebSocket, backoff: { baseMs: 20, capMs: 100 } })
    closers.push(() => rt.close())
    // (No JSX: the project includes *.test.ts only.)
    const strict = ({ children }: { children?: ReactNode }) =>
      h(StrictMode, null, h(TandemProvider, { client, realtime: rt }, children))
    // Warm up: connected, the collection channel known, the timers of a steady state running.
    rt.connect()
    await waitUntil(() => rt.state === 'connected', { what: `connected; ${at}` })
    const base = baseline()
    const random = mulberry32(SEED)
    const names = new Set<string>()

    for (let i = 0; i < CYCLES; i++) {
      const channel = `leak:${between(random, 0, 24)}`
      const limit = between(random, 1, 10)
      names.add(channel)
      const { unmount } = render(h(Both, { channel, limit }), { wrapper: strict })
      unmount()
    }
    names.add('support:resources')

    // Everything lets go after its delay: leases, live bindings, cache entries (gcTime 50 ms), requests.
    // Connected again, as at the baseline: on a busy machine a heartbeat can come late and the client
    // reconnect meanwhile (its backoff is a timer in place of the connected client's two).
    await settle(
      base,
      'after the mount cycles',
      () =>
        rt.state === 'connected' &&
        leasedChannels(rt) === 0 &&
        [...names].every(
          (n) =>
            (rt.channel(n) as unknown as { leases: number }).leases === 0 && rt.channel(n).state === 'unsubscribed',
        ) &&
        client.cache.dehydrate().entries.length === 0,
    )
    // And the service agrees: nothing is subscribed on the socket any more (a channel with nothing
    // left in it is forgotten, so it is not even listed; one with messages is, with 0 subscribers).
    for (const n of names)
      expect(
        (await client.realtime.channels({ prefix: n })).data
          .filter((c) => c.name === n && c.subscribers > 0)
          .map((c) => c.subscribers),
        `${n}; ${at}`,
      ).toEqual([])
    console.info(
      `[leaks] ${CYCLES} StrictMode cycles over ${names.size - 1} channels: timers ${timerCount()}/${base.timers}, listeners ${listenerCount()}/${base.listeners}, ` +
        `sockets ${emu.realtime.stats.connections.open}/${base.sockets}, cache entries 0, leases 0; ${at}`,
    )
  })

  it(`${CYCLES} connect/close cycles of the realtime client, closed at every stage, leave no socket, timer or listener`, async () => {
    printSeedOnFailure(SEED, FILE)
    const client = makeClient()
    const base = baseline()
    const rt: Realtime = createRealtime({ client }, { WebSocket, backoff: { baseMs: 5, capMs: 20 } })
    const random = mulberry32(SEED + 1)
    const stages = { immediate: 0, connecting: 0, connected: 0 }
    const ch = rt.channel('leak:cc')
    const off = ch.subscribe(() => {})
    rt.close() // subscribe auto-connected; the cycles drive it from here
    for (let i = 0; i < CYCLES; i++) {
      rt.connect()
      const r = random()
      if (r < 0.3) stages.immediate++
      else if (r < 0.6) {
        // Mid-way: the socket exists at the emulator, the handshake may or may not be done.
        const total = emu.realtime.stats.connections.total
        await waitUntil(() => emu.realtime.stats.connections.total > total, { what: `socket ${i}; ${at}` })
        stages.connecting++
      } else {
        await waitUntil(() => rt.state === 'connected' && ch.state === 'subscribed', {
          what: `cycle ${i} connected (${rt.state}); ${at}`,
        })
        stages.connected++
      }
      rt.close()
    }
    off()
    expect(rt.state, at).toBe('closed')
    await settle(base, 'after the connect/close cycles')
    console.info(
      `[leaks] ${CYCLES} connect/close cycles (closed ${stages.immediate} at once, ${stages.connecting} mid-open, ${stages.connected} connected): ` +
        `${emu.realtime.stats.connections.total} sockets opened, all closed; timers ${timerCount()}/${base.timers}, listeners ${listenerCount()}/${base.listeners}; ${at}`,
    )
  })
})

function Both({ channel, limit }: { channel: string; limit: number }) {
  useChannel(channel, () => {})
  useResources('support/resources', { limit }, { live: true, staleTime: 60_000 })
  return null
}
