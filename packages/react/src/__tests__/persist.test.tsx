// @tandem/react/persist: the gate and the hooks over persistCache and durableOutbox, against the
// emulator over HTTP. A "reload" is a new client on the same in-memory storage; "offline" is a
// fetch that fails as a browser's does when the network is gone (the emulator keeps running).
import { isApiError, type Client, type RequestEvent } from '@tandem/core'
import { listQuery } from '@tandem/core/cache'
import {
  durableOutbox,
  memoryStorage,
  persistCache,
  type CachePersister,
  type DurableOutbox,
  type PersistStorage,
} from '@tandem/core/persist'
import { act, render, renderHook, screen, waitFor } from '@testing-library/react'
import { StrictMode, type ReactNode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { poll } from '../../../../test/utils/wait.js'
import { createClientOfStyle } from '../../../core/src/__tests__/client-style.js'
import { TandemProvider, useResources } from '../index.js'
import { PersistGate, useOutbox, usePersistStatus } from '../persist.js'
import { setup } from './helpers.js'

const LIST = listQuery('support/resources', { limit: 3 })

/** What each test started, stopped after it (before setup.ts closes the emulator). */
const started: { stop(): void }[] = []
afterEach(() => {
  for (const s of started.splice(0)) s.stop()
})

let keys = 0
/** A key of its own per test: the tabs of one key hear each other on the process's BroadcastChannel. */
const newKey = () => `user:react-${process.pid}-${++keys}`

/** One page: a client (both styles: `base` is what an app holds), its GETs counted. */
function page(url: string, o: { fetch?: typeof fetch; outbox?: DurableOutbox } = {}) {
  const { client, base } = createClientOfStyle({ baseUrl: url, auth: { url: `${url}/dev/token` }, retry: false, ...o })
  const requests: RequestEvent[] = []
  client.on('request', (e) => void requests.push(e))
  const gets = () => requests.filter((r) => r.method === 'GET' && r.path === '/v1/resources' && !r.errorCode).length
  return { client, base, gets }
}

function persisted(base: Client, key: string, storage: PersistStorage): CachePersister {
  const persister = persistCache(base, { key, storage })
  started.push(persister)
  return persister
}

/** The page before the reload: it listed, the user renamed the first item, and it was saved. */
async function savedEarlier(url: string, key: string, storage: PersistStorage) {
  const before = page(url)
  const p = persisted(before.base, key, storage)
  await p.restored
  await before.client.cache.fetch(LIST)
  before.client.cache.setData(LIST, (d) => ({
    pages: [{ ...d!.pages[0]!, data: d!.pages[0]!.data.map((x, i) => (i ? x : { ...x, name: 'as saved' })) }],
  }))
  await p.flush()
  p.stop()
  return before.client.cache.get(LIST).getSnapshot().items
}

function Names({ renders }: { renders: { status: string; names: string[] }[] }) {
  const { status, items } = useResources('support/resources', { limit: 3 })
  renders.push({ status, names: items.map((x) => x.name) })
  return (
    <ul>
      {items.map((x) => (
        <li key={x.id}>{x.name}</li>
      ))}
    </ul>
  )
}

describe('@tandem/react/persist', () => {
  it('PersistGate: the fallback, then the children with the saved list on their first render; then it revalidates', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const key = newKey()
    const saved = await savedEarlier(emu.url, key, storage)
    expect(saved[0]!.name).toBe('as saved')

    const after = page(emu.url)
    const persister = persisted(after.base, key, storage)
    const renders: { status: string; names: string[] }[] = []
    render(
      <StrictMode>
        <TandemProvider client={after.base}>
          <PersistGate persister={persister} fallback={<p>Restoring…</p>}>
            <Names renders={renders} />
          </PersistGate>
        </TandemProvider>
      </StrictMode>,
    )
    expect(screen.getByText('Restoring…')).toBeTruthy()
    expect(renders).toEqual([])
    await waitFor(() => expect(renders.length).toBeGreaterThan(0))
    // The first render (both of StrictMode's) shows what was saved, before any request.
    expect(renders[0]).toEqual({ status: 'success', names: saved.map((x) => x.name) })
    expect(renders[1]).toEqual(renders[0])
    expect(after.gets()).toBe(0)
    expect(screen.queryByText('Restoring…')).toBeNull()
    // Restored stale: the list revalidates once, and the server's name replaces the saved one.
    await waitFor(() => expect(screen.queryByText('as saved')).toBeNull())
    expect(renders.at(-1)!.names[0]).not.toBe('as saved')
    expect(renders.at(-1)!.names.slice(1)).toEqual(saved.slice(1).map((x) => x.name))
    expect(after.gets()).toBe(1)
    expect(persister.getSnapshot()).toMatchObject({ status: 'restored', restore: { entries: 1, reason: 'restored' } })
  })

  it('a saved list of the wrong shape is dropped: the gate renders, the list loads afresh, nothing throws', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const key = newKey()
    const now = Date.now()
    const entries = [{ query: LIST, data: { pages: 5 }, dataUpdatedAt: now - 1 }]
    await storage.set(`${key}:cache`, { v: 1, buster: '', savedAt: now, state: { entries } })
    const after = page(emu.url)
    const persister = persisted(after.base, key, storage)
    const renders: { status: string; names: string[] }[] = []
    render(
      <TandemProvider client={after.base}>
        <PersistGate persister={persister} fallback={<p>Restoring…</p>}>
          <Names renders={renders} />
        </PersistGate>
      </TandemProvider>,
    )
    await waitFor(() => expect(renders.at(-1)?.status).toBe('success'))
    expect(renders[0]).toEqual({ status: 'pending', names: [] })
    expect(renders.at(-1)!.names).toHaveLength(3)
    expect(persister.getSnapshot().restore).toMatchObject({ entries: 0, reason: 'unreadable', dropped: 1 })
  })

  it('PersistGate without a persister renders its children at once', async () => {
    const { emu } = await setup()
    const { base } = page(emu.url)
    render(
      <TandemProvider client={base}>
        <PersistGate persister={undefined} fallback={<p>Restoring…</p>}>
          <p>App</p>
        </PersistGate>
      </TandemProvider>,
    )
    expect(screen.getByText('App')).toBeTruthy()
    expect(screen.queryByText('Restoring…')).toBeNull()
  })

  it('the server renders the fallback; hydrating its HTML agrees, then shows the restored children and revalidates', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const key = newKey()
    await savedEarlier(emu.url, key, storage)
    const after = page(emu.url)
    const persister = persisted(after.base, key, storage)
    await persister.restored // restored before hydration: only the server snapshot keeps them agreeing
    const renders: { status: string; names: string[] }[] = []
    const app = (
      <TandemProvider client={after.base}>
        <PersistGate persister={persister} fallback={<p>Restoring…</p>}>
          <Names renders={renders} />
        </PersistGate>
      </TandemProvider>
    )
    const html = renderToString(app)
    expect(html).toBe('<p>Restoring…</p>')
    expect(renders).toEqual([])
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    const errors: unknown[] = []
    const root = await act(async () => hydrateRoot(container, app, { onRecoverableError: (e) => errors.push(e) }))
    try {
      expect(errors).toEqual([])
      expect(renders[0]).toMatchObject({ status: 'success', names: expect.arrayContaining(['as saved']) })
      await waitFor(() => expect(container.textContent).not.toContain('as saved')) // revalidated
      expect(after.gets()).toBe(1)
    } finally {
      act(() => root.unmount())
      container.remove()
    }
  })

  it('usePersistStatus follows the restore, and says when storage is refused (memory from then on)', async () => {
    const { emu } = await setup()
    const refusing: PersistStorage = {
      get: () => Promise.resolve(undefined),
      set: () => Promise.reject(Object.assign(new Error('full'), { name: 'QuotaExceededError' })),
      del: () => Promise.resolve(),
    }
    const { client, base } = page(emu.url)
    const persister = persisted(base, newKey(), refusing)
    const { result } = renderHook(() => usePersistStatus(persister), {
      wrapper: ({ children }: { children?: ReactNode }) => <StrictMode>{children}</StrictMode>,
    })
    expect(result.current).toEqual({ status: 'restoring', mode: 'storage', restore: undefined })
    await waitFor(() => expect(result.current.status).toBe('restored'))
    // Beginning the key's session stores its record (what a logout deletes first): refused, so memory already.
    expect(result.current).toEqual({
      status: 'restored',
      mode: 'memory',
      restore: { entries: 0, reason: 'empty', dropped: 0, problems: [] },
    })
    await act(async () => {
      await client.cache.fetch(LIST)
      await persister.flush()
    })
    expect(result.current.mode).toBe('memory')
    expect(result.current.restore).toEqual({ entries: 0, reason: 'empty', dropped: 0, problems: [] })
  })

  it('useOutbox: a write made offline is held (and shown) until it is applied; a refused one leaves too', async () => {
    const { emu } = await setup()
    const net = { offline: false }
    const fetch: typeof globalThis.fetch = (input, init) =>
      net.offline ? Promise.reject(new TypeError('Failed to fetch')) : globalThis.fetch(input, init)
    const outbox = durableOutbox({
      key: newKey(),
      storage: memoryStorage(),
      random: () => 0,
      retry: { baseMs: 60_000, maxMs: 60_000 }, // only `online` sends it again
    })
    started.push(outbox)
    const { client } = page(emu.url, { fetch, outbox })
    await outbox.ready
    const [conversation] = (await client.support.conversations.list({ limit: 1 })).data
    const id = conversation!.id
    const { result } = renderHook(() => useOutbox(outbox), {
      wrapper: ({ children }: { children?: ReactNode }) => <StrictMode>{children}</StrictMode>,
    })
    expect(result.current).toMatchObject({ status: 'idle', entries: [] })

    net.offline = true
    const reply = client.support.conversations.reply(id, { text: 'written offline' })
    // Stored, sent, failed for now: held until the page is back online.
    await waitFor(() => expect(result.current).toMatchObject({ status: 'waiting', entries: [{ attempts: 1 }] }))
    const [held] = result.current.entries
    expect(held).toMatchObject({ kind: 'rest', lane: `support /v1/conversations/${id}` })
    expect(held!.lastError?.code).toBeTruthy()

    net.offline = false
    act(() => void window.dispatchEvent(new Event('online')))
    const thread = await reply
    expect(thread.text).toBe('written offline')
    await waitFor(() => expect(result.current).toMatchObject({ status: 'idle', entries: [] }))

    const refused = client.support.conversations.reply('cnv_missing', { text: 'nowhere' })
    await expect(refused).rejects.toSatisfy(isApiError)
    await poll(() => result.current.entries.length === 0 && result.current.status === 'idle', 'the refused write gone')
  })
})
