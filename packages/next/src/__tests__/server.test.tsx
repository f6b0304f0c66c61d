// The server side in Node, as a Next server runs it: the server client with in-process tokens,
// prefetch, and the client components rendered to HTML (no `window`, no `WebSocket` used).
import { AuthError, itemQuery, listQuery, type Conversation, type ListData } from '@tandem/core'
import { useResource, useResources } from '@tandem/react'
import { Suspense, use } from 'react'
import { renderToReadableStream, renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { TandemHydrate, TandemNextProvider } from '../index.js'
import { createServerClient, prefetch } from '../server.js'
import { AGENT, browserClient, MINT, setup } from './helpers.js'

const INBOX = listQuery('support/conversations', { limit: 5 })

function Inbox() {
  const { items } = useResources('support/conversations', { limit: 5 })
  return (
    <ul>
      {items.map((c) => (
        <li key={c.id}>{c.subject}</li>
      ))}
    </ul>
  )
}

const subjects = (state: { entries: { data: unknown }[] }) =>
  (state.entries[0]!.data as ListData<Conversation>).pages[0]!.data.map((c) => c.subject)

/** What a page's client components get from the root layout: only what crosses into a client component. */
const layoutOptions = (baseUrl: string) => ({ baseUrl, auth: { url: '/api/tandem-token' } })

describe('@tandem/next/server', () => {
  it('createServerClient lists conversations with a token minted in this process (nothing but the list is fetched)', async () => {
    const s = await setup()
    const fetched: string[] = []
    const client = createServerClient({
      baseUrl: s.emu.url,
      mint: MINT,
      ...AGENT,
      fetch: (input, init) => {
        fetched.push(new URL(input instanceof Request ? input.url : String(input)).pathname)
        return fetch(input, init)
      },
    })
    const page = await client.support.conversations.list({ limit: 3 })
    expect(page.data).toHaveLength(3)
    expect(fetched).toEqual(['/support/v1/conversations'])
    expect(s.emu.stats.tokenRequests).toBe(0)
  })

  it('a wrong key is refused by the service: an AuthError, without the secret in it', async () => {
    const s = await setup()
    const secret = 'not_the_emulator_secret_123456'
    const client = createServerClient({ baseUrl: s.emu.url, mint: { ...MINT, secret }, ...AGENT, retry: false })
    const error = await client.support.conversations.list().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AuthError)
    expect(JSON.stringify(error) + String(error)).not.toContain(secret)
  })

  it('prefetch returns the given queries only; a browser cache hydrated from it answers them with 0 requests', async () => {
    const s = await setup()
    await s.server.cache.fetch(listQuery('support/conversations', { limit: 2 })) // fetched earlier by another part of the page
    const first = (await s.server.support.conversations.list({ limit: 1 })).data[0]!
    const state = await prefetch(s.server, INBOX, itemQuery('support/conversations', first.id))
    expect(state.entries.map((e) => e.query)).toEqual([
      { service: 'support', collection: 'conversations', params: { limit: 5 } },
      { service: 'support', collection: 'conversations', id: first.id },
    ])
    // It crosses the server/client boundary as JSON.
    const browser = browserClient(s.emu)
    browser.client.cache.hydrate(JSON.parse(JSON.stringify(state)) as typeof state)
    const list = await browser.client.cache.fetch(INBOX)
    const item = await browser.client.cache.fetch(itemQuery('support/conversations', first.id))
    expect(list.items.map((c) => c.subject)).toEqual(subjects(state))
    expect(item.data?.id).toBe(first.id)
    expect(browser.requests).toHaveLength(0)
  })

  it('prefetch never rejects: a query that failed is left out, for the browser to fetch', async () => {
    const s = await setup()
    s.emu.faults.failNext(1, { service: 'support', status: 503, code: 'unavailable' })
    const state = await prefetch(s.server, INBOX)
    expect(state.entries).toEqual([])
  })

  it('renderToString of the provider with <TandemHydrate> holds the prefetched subjects, with a relative token URL and no request', async () => {
    expect(typeof window).toBe('undefined') // a server: the provider must not need a page
    const s = await setup()
    const state = await prefetch(s.server, INBOX)
    const before = { ...s.emu.stats }
    const html = renderToString(
      <TandemNextProvider clientOptions={layoutOptions(s.emu.url)} realtimeOptions={{}}>
        <TandemHydrate state={state}>
          <Inbox />
        </TandemHydrate>
      </TandemNextProvider>,
    )
    expect(subjects(state)).toHaveLength(5)
    for (const subject of subjects(state)) expect(html).toContain(subject)
    expect(s.emu.stats.requests).toBe(before.requests)
    expect(s.emu.stats.tokenRequests).toBe(0)
  })

  it('renderToReadableStream: a Suspense boundary that streams later hydrates its own state', async () => {
    const s = await setup()
    const inbox = await prefetch(s.server, INBOX)
    const first = (inbox.entries[0]!.data as ListData<Conversation>).pages[0]!.data[0]!
    const later = prefetch(s.server, itemQuery('support/conversations', first.id))
    function Conversation() {
      const { data } = useResource('support/conversations', first.id)
      return <h2>{data ? `open: ${data.subject}` : 'loading'}</h2>
    }
    // A server component awaiting its prefetch is, to react-dom, a component that suspends on it.
    function Streamed() {
      const state = use(later)
      return (
        <TandemHydrate state={state}>
          <Conversation />
        </TandemHydrate>
      )
    }
    const stream = await renderToReadableStream(
      <TandemNextProvider clientOptions={layoutOptions(s.emu.url)}>
        <TandemHydrate state={inbox}>
          <Inbox />
        </TandemHydrate>
        <Suspense fallback={<p>waiting</p>}>
          <Streamed />
        </Suspense>
      </TandemNextProvider>,
    )
    await stream.allReady
    const html = await new Response(stream).text()
    for (const subject of subjects(inbox)) expect(html).toContain(subject)
    expect(html).toContain(`open: ${first.subject}`)
    expect(html).not.toContain('loading')
  })

  it('importing @tandem/next on a server does not touch browser globals', async () => {
    expect(typeof window).toBe('undefined')
    const next = await import('@tandem/next')
    expect(typeof next.TandemNextProvider).toBe('function')
    expect(typeof next.TandemHydrate).toBe('function')
  })
})
