// What Next.js prerenders (cacheComponents, create-next-app's default since 16.4) refuses: the clock
// and randomness read outside a request. The provider is rendered with a root layout, prerendered
// at build for every static route and `/_not-found`, so making its client and realtime connection
// reads neither. prefetch asks Next.js for a request first (`connection()`), run here in the stores
// Next.js's own prerenders run in, so no token is minted and nothing is sent while it prerenders.
import { listQuery } from '@tandem/core'
import { workAsyncStorage, type WorkStore } from 'next/dist/server/app-render/work-async-storage.external.js'
import {
  workUnitAsyncStorage,
  type WorkUnitStore,
} from 'next/dist/server/app-render/work-unit-async-storage.external.js'
import { useQuery, useResource, useResources } from '@tandem/react'
import { useConnectionState } from '@tandem/react/realtime'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TandemNextProvider } from '../index.js'
import { prefetch } from '../server.js'
import { setup } from './helpers.js'

const INBOX = listQuery('support/conversations', { limit: 5 })

/** Every read of the clock or randomness (what Next.js refuses while it prerenders), in order. */
function watchUnstableValues(): string[] {
  const reads: string[] = []
  const real = { now: Date.now, random: Math.random, uuid: crypto.randomUUID, values: crypto.getRandomValues }
  vi.spyOn(Date, 'now').mockImplementation(() => (reads.push('Date.now()'), real.now()))
  vi.spyOn(Math, 'random').mockImplementation(() => (reads.push('Math.random()'), real.random()))
  vi.spyOn(crypto, 'randomUUID').mockImplementation(() => (reads.push('crypto.randomUUID()'), real.uuid.call(crypto)))
  vi.spyOn(crypto, 'getRandomValues').mockImplementation(
    (array) => (reads.push('crypto.getRandomValues()'), real.values.call(crypto, array)),
  )
  return reads
}

/** Runs `fn` as Next.js runs a page's render in a prerender of the given kind. */
function inPrerender<T>(unit: Record<string, unknown>, fn: () => T): T {
  const work = { route: '/inbox', forceStatic: false, dynamicShouldError: false } as unknown as WorkStore
  return workAsyncStorage.run(work, () =>
    workUnitAsyncStorage.run({ phase: 'render', ...unit } as unknown as WorkUnitStore, fn),
  )
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('under a Next.js prerender', () => {
  it('<TandemNextProvider> (its client and realtime connection made) renders without reading the clock or randomness', () => {
    const reads = watchUnstableValues()
    const html = renderToString(
      <TandemNextProvider
        clientOptions={{ baseUrl: 'http://127.0.0.1:9', auth: { url: '/api/tandem-token' } }}
        realtimeOptions={{}}
      >
        <p>the page</p>
      </TandemNextProvider>,
    )
    vi.restoreAllMocks()
    expect(html).toBe('<p>the page</p>')
    expect(reads).toEqual([])
  })

  it('components that fetch in the browser (no prefetch) render pending without reading the clock or randomness', () => {
    function Client() {
      const list = useResources('support/conversations', { limit: 5 }, { live: true })
      const one = useResource('support/conversations', 'conv_1', { live: true })
      const search = useQuery(['maps', 'Par'], (client) => client.maps.searchPlaces({ query: 'Par' }))
      const { state } = useConnectionState()
      return <p>{[list.status, one.status, search.status, state].join(' ')}</p>
    }
    const reads = watchUnstableValues()
    const html = renderToString(
      <TandemNextProvider
        clientOptions={{ baseUrl: 'http://127.0.0.1:9', auth: { url: '/api/tandem-token' } }}
        realtimeOptions={{}}
      >
        <Client />
      </TandemNextProvider>,
    )
    vi.restoreAllMocks()
    expect(html).toBe('<p>pending pending pending idle</p>')
    expect(reads).toEqual([])
  })

  it('prefetch in a static prerender (cacheComponents off) makes the route dynamic at connection(): no request', async () => {
    const s = await setup()
    const error = await inPrerender({ type: 'prerender-legacy', revalidate: Infinity }, () =>
      prefetch(s.server, INBOX),
    ).catch((e: unknown) => e)
    expect(String(error)).toContain("couldn't be rendered statically because it used `connection`")
    expect(s.serverRequests).toEqual([])
  })

  it('prefetch in a cacheComponents prerender waits on connection() until the prerender ends: no token, no request', async () => {
    const s = await setup()
    const prerender = new AbortController()
    const reads = watchUnstableValues()
    const pending = inPrerender({ type: 'prerender', renderSignal: prerender.signal }, () => prefetch(s.server, INBOX))
    prerender.abort() // the prerender ends: Next.js rejects what still waits on the request
    const error = await pending.catch((e: unknown) => e)
    vi.restoreAllMocks()
    expect(String(error)).toContain('connection()')
    expect(s.serverRequests).toEqual([])
    expect(reads).toEqual([])
  })
})
