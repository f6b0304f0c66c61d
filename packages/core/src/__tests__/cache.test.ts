import type { AccessLogLine } from '@tandem/emulator'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  createClient,
  createTrigger,
  type ItemQuery,
  type ItemSnapshot,
  type ListQuery,
  type ListSnapshot,
  type Resource,
  type ResourceCache,
  type WatchOptions,
} from '../index.js'
import { setup } from './helpers.js'

const realSetTimeout = globalThis.setTimeout
afterEach(() => {
  vi.useRealTimers()
})

/** Watches a key and lets the test wait (bounded) for a snapshot that satisfies a predicate. */
function track<S = ListSnapshot>(cache: ResourceCache, query: ListQuery | ItemQuery, options?: WatchOptions) {
  const seen: S[] = []
  const waiters = new Set<() => void>()
  const off = cache.watch(
    query as ListQuery,
    (s) => {
      seen.push(s as S)
      for (const w of [...waiters]) w()
    },
    options,
  )
  const until = (pred: (s: S) => boolean, label = 'a matching snapshot') =>
    new Promise<S>((resolve, reject) => {
      const timer = realSetTimeout(() => {
        waiters.delete(check)
        reject(new Error(`timed out waiting for ${label}`))
      }, 5_000)
      function check() {
        const s = seen.at(-1)
        if (s === undefined || !pred(s)) return
        waiters.delete(check)
        clearTimeout(timer)
        resolve(s)
      }
      waiters.add(check)
      check()
    })
  return { seen, off, until, last: () => seen.at(-1) as S }
}

const settled = (s: { status: string; isFetching: boolean }) => s.status !== 'pending' && !s.isFetching
const list = (service: 'maps' | 'support' | 'realtime', params: ListQuery['params'] = { limit: 10 }): ListQuery => ({
  service,
  collection: 'resources',
  params,
})

describe('resource cache', () => {
  it('50 concurrent watchers of one key make exactly 1 request and share one snapshot', async () => {
    const { emu, client } = await setup()
    const before = emu.stats.byService.support
    const watchers = Array.from({ length: 50 }, () => track(client.cache, list('support')))
    const snapshot = await watchers[0]!.until(settled)
    expect(emu.stats.byService.support - before).toBe(1)
    expect(snapshot).toMatchObject({ status: 'success', error: null, hasNextPage: true, isStale: true })
    expect(snapshot.items).toHaveLength(10)
    for (const w of watchers) expect(w.last()).toBe(snapshot)
    watchers.forEach((w) => w.off())
  })

  it('getSnapshot keeps its reference through unrelated notifications and replaces it on change', async () => {
    const { client } = await setup()
    const a = track(client.cache, list('support'))
    const b = track(client.cache, list('maps'))
    await Promise.all([a.until(settled), b.until(settled)])
    const entry = client.cache.get(list('support'))
    const s1 = entry.getSnapshot()
    expect(entry.getSnapshot()).toBe(s1)

    // Another key changing notifies its own watchers only.
    const seenByA = a.seen.length
    client.cache.setData(list('maps'), (d) => ({ pages: d!.pages.slice(0, 1) }))
    await b.until(() => true)
    expect(a.seen.length).toBe(seenByA)
    expect(entry.getSnapshot()).toBe(s1)

    const refetching = entry.refetch()
    const s2 = entry.getSnapshot()
    expect(s2).not.toBe(s1)
    expect(s2.isFetching).toBe(true)
    expect(s2.items).toBe(s1.items) // data unchanged: items keep their reference
    await refetching
    const s3 = entry.getSnapshot()
    expect(s3.isFetching).toBe(false)
    expect(s3.data).toBe(s1.data) // an identical answer is structurally shared away
    a.off()
    b.off()
  })

  it('staleTime: no refetch on mount while fresh, one once stale', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { emu, client } = await setup()
    const count = () => emu.stats.byService.maps
    const start = count()
    const first = track(client.cache, list('maps'), { staleTime: 60_000 })
    await first.until(settled)
    first.off()
    expect(count() - start).toBe(1)

    const second = track(client.cache, list('maps'), { staleTime: 60_000 })
    expect(second.last()).toMatchObject({ status: 'success', isFetching: false, isStale: false })
    second.off()
    expect(count() - start).toBe(1)

    vi.advanceTimersByTime(60_001)
    expect(client.cache.get(list('maps')).getSnapshot().isStale).toBe(true)
    const third = track(client.cache, list('maps'), { staleTime: 60_000 })
    await third.until((s) => settled(s) && !s.isStale)
    expect(count() - start).toBe(2)
    third.off()
  })

  it('the last subscriber leaving mid-request aborts it; data, status and error stay as they were', async () => {
    const logged: AccessLogLine[] = []
    const onLine = new Set<() => void>()
    const { emu, client } = await setup({
      emulator: {
        onLog: (line) => {
          logged.push(line)
          onLine.forEach((f) => f())
        },
      },
    })
    const q = list('maps', { limit: 5 })
    const first = track(client.cache, q)
    const before = await first.until(settled)
    first.off()

    emu.faults.latency(10_000, { service: 'maps', count: 1 })
    const arrived = new Promise<void>((resolve) => {
      emu.server.on('request', (req) => req.url?.startsWith('/maps/v1/resources') && resolve())
    })
    const second = track(client.cache, q) // stale: refetches, held by the latency
    expect(second.last().isFetching).toBe(true)
    const joined = client.cache.fetch(q) // joins the request in flight
    await arrived
    const aborted = new Promise<AccessLogLine>((resolve) => {
      const check = () => {
        const line = logged.find((l) => l.path === '/maps/v1/resources' && l.status === 0)
        if (line) resolve(line)
      }
      onLine.add(check)
      check()
    })
    const requests = emu.stats.byService.maps
    second.off()
    await Promise.resolve() // the abort runs a microtask later (see the StrictMode test)

    const after = client.cache.get(q).getSnapshot()
    expect(after).toMatchObject({ status: 'success', error: null, isFetching: false })
    expect(after.data).toBe(before.data)
    expect(after.dataUpdatedAt).toBe(before.dataUpdatedAt)
    const result = await joined // resolves: no AbortError reaches the caller
    expect(result.data).toBe(before.data)
    expect(await aborted).toMatchObject({ status: 0, method: 'GET' })
    expect(second.seen.every((s) => s.error === null && s.data === before.data)).toBe(true)
    expect(emu.stats.byService.maps).toBe(requests) // no retry of a cancelled request
  })

  it('unsubscribe + immediate resubscribe (React StrictMode) keeps the request in flight', async () => {
    const { emu, client } = await setup()
    const before = emu.stats.byService.support
    const entry = client.cache.get(list('support'))
    entry.subscribe(() => {})()
    const off = entry.subscribe(() => {})
    await Promise.resolve()
    expect(entry.getSnapshot().isFetching).toBe(true)
    await entry.fetchNextPage() // waits for the first page, then loads the second
    expect(entry.getSnapshot().data?.pages).toHaveLength(2)
    expect(emu.stats.byService.support - before).toBe(2)
    off()
  })

  it('gc removes an entry gcTime after its last subscriber left, never while subscribed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const { client } = await setup({ client: { cache: { gcTime: 60_000 } } })
    const q = list('support')
    await client.cache.fetch(q)
    const entry = client.cache.get(q)
    // dehydrate() lists the cached entries without creating one (get() would).
    const cached = () => client.cache.dehydrate().entries.length
    const off = client.cache.watch(q, () => {}, { staleTime: Infinity })
    vi.advanceTimersByTime(10 * 60_000)
    expect(client.cache.get(q)).toBe(entry)
    off()
    vi.advanceTimersByTime(59_999)
    expect(cached()).toBe(1)
    vi.advanceTimersByTime(1)
    expect(cached()).toBe(0)
    // A holder of the collected entry that subscribes again puts it back (a mounted component).
    const again = entry.subscribe(() => {}, { staleTime: Infinity })
    expect(client.cache.get(q)).toBe(entry)
    again()
    client.cache.clear()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('fetchNextPage walks every page; refetch reloads all loaded pages', async () => {
    const { emu, client } = await setup()
    const ids: string[] = []
    for await (const r of client.support.resources.list({ limit: 100 })) ids.push(r.id)
    const pageCount = Math.ceil(ids.length / 100)
    expect(pageCount).toBeGreaterThan(1)

    const q = list('support', { limit: 100 })
    const w = track(client.cache, q)
    let s = await w.until(settled)
    const entry = client.cache.get(q)
    while (s.hasNextPage) {
      const next = entry.fetchNextPage()
      expect(entry.getSnapshot()).toMatchObject({ isFetchingNextPage: true, isFetching: true })
      await next
      s = entry.getSnapshot()
    }
    expect(s.data?.pages).toHaveLength(pageCount)
    expect(s.items.map((r) => r.id)).toEqual(ids)
    await entry.fetchNextPage() // no next page: nothing to do

    const before = emu.stats.byService.support
    await entry.refetch()
    expect(emu.stats.byService.support - before).toBe(pageCount)
    expect(entry.getSnapshot().items).toBe(s.items)
    w.off()
  })

  it('invalidate by prefix marks matching entries stale and refetches only the watched ones', async () => {
    const { emu, client } = await setup()
    const a = track(client.cache, list('support', { limit: 5 }))
    const b = track(client.cache, list('support', { limit: 6, status: 'open' }))
    const c = track(client.cache, list('maps', { limit: 5 }))
    await Promise.all([a.until(settled), b.until(settled), c.until(settled)])
    await client.cache.fetch(list('support', { limit: 7 })) // cached, unwatched
    const stats = { ...emu.stats.byService }

    await client.cache.invalidate({ service: 'support' })
    expect(emu.stats.byService.support - stats.support).toBe(2)
    expect(emu.stats.byService.maps).toBe(stats.maps)
    expect(client.cache.get(list('support', { limit: 7 })).getSnapshot().isStale).toBe(true)

    await client.cache.invalidate({ service: 'support', params: { status: 'open' } })
    expect(emu.stats.byService.support - stats.support).toBe(3)
    await client.cache.invalidate({ collection: 'nothing-here' })
    expect(emu.stats.byService.support - stats.support).toBe(3)
    for (const w of [a, b, c]) w.off()
  })

  it('setData applies an optimistic update; rollback restores it, or refetches if the data moved on', async () => {
    const { emu, client } = await setup()
    const q = list('maps', { limit: 4 })
    const w = track(client.cache, q)
    const before = await w.until(settled)
    const rename = (name: string) => (d: { pages: { data: Resource[]; nextCursor: string | null }[] } | undefined) => ({
      pages: d!.pages.map((p, i) => (i ? p : { ...p, data: p.data.map((r, j) => (j ? r : { ...r, name })) })),
    })

    const rollback = client.cache.setData(q, rename('Optimistic'))
    const optimistic = w.last()
    expect(optimistic.items[0]!.name).toBe('Optimistic')
    expect(optimistic.items[1]).toBe(before.items[1])
    rollback()
    expect(w.last().data).toBe(before.data)
    expect(w.last().status).toBe('success')

    // Data replaced after the optimistic write (here: a second write): rollback refetches instead.
    const requests = emu.stats.byService.maps
    const undo = client.cache.setData(q, rename('First'))
    client.cache.setData(q, rename('Second'))
    undo()
    const fresh = await w.until((s) => settled(s) && s.items[0]?.name === before.items[0]?.name)
    expect(emu.stats.byService.maps - requests).toBe(1)
    expect(fresh.items[0]).toEqual(before.items[0])

    // An item entry can be seeded with no request at all.
    const item = { service: 'maps', collection: 'resources', id: 'seeded' } as const
    client.cache.setData<Resource>(item, { id: 'seeded', name: 'Seeded' })
    expect(client.cache.get<Resource>(item).getSnapshot()).toMatchObject({
      status: 'success',
      data: { name: 'Seeded' },
    })
    w.off()
  })

  it('structural sharing keeps unchanged items across a refetch', async () => {
    const { client } = await setup()
    const q = list('maps', { limit: 10 })
    const w = track(client.cache, q)
    const before = await w.until(settled)
    const target = before.items[3]!
    await client.maps.resources.update(target.id, { name: 'Renamed office' })
    await client.cache.get(q).refetch()
    const after = w.last()
    expect(after.items[3]).not.toBe(target)
    expect(after.items[3]!.name).toBe('Renamed office')
    after.items.forEach((item, i) => i !== 3 && expect(item).toBe(before.items[i]))
    expect(after.data?.pages[0]).not.toBe(before.data?.pages[0])
    w.off()
  })

  it('applyEvent patches cached lists and items in place, without a request', async () => {
    const { emu, client } = await setup()
    const q = list('support', { limit: 5 })
    const w = track(client.cache, q)
    const other = track(client.cache, list('maps', { limit: 5 }))
    const before = await w.until(settled)
    const mapsBefore = await other.until(settled)
    const first = before.items[0]!
    const itemQ = { service: 'support', collection: 'resources', id: first.id } as const
    await client.cache.fetch(itemQ)
    const requests = { ...emu.stats.byService }
    const prefix = { service: 'support', collection: 'resources' } as const

    const created: Resource = { id: 'res_new', name: 'Created live' }
    client.cache.applyEvent(prefix, { type: 'created', item: created })
    let s = w.last()
    expect(s.items[0]).toBe(created)
    expect(s.items.slice(1)).toEqual(before.items)
    expect(s.items[1]).toBe(first)
    client.cache.applyEvent(prefix, { type: 'created', item: { ...created } }) // already there
    expect(w.last()).toBe(s)

    client.cache.applyEvent(prefix, { type: 'updated', item: { ...first, name: 'Updated live' } })
    s = w.last()
    expect(s.items[1]).toMatchObject({ id: first.id, name: 'Updated live' })
    expect(s.items[2]).toBe(before.items[1])
    expect(client.cache.get<Resource>(itemQ).getSnapshot().data?.name).toBe('Updated live')

    client.cache.applyEvent(prefix, { type: 'deleted', id: first.id })
    s = w.last()
    expect(s.items.map((r) => r.id)).not.toContain(first.id)
    expect(s.items).toHaveLength(before.items.length)
    expect(client.cache.get<Resource>(itemQ).getSnapshot()).toMatchObject({ status: 'success', data: undefined })

    expect(other.last()).toBe(mapsBefore) // another service's list is untouched
    expect(emu.stats.byService).toEqual(requests)
    w.off()
    other.off()
  })

  it('dehydrate → hydrate in a new cache: hydrated keys are served with no request', async () => {
    const { emu, client } = await setup()
    const q = list('support', { limit: 3, status: 'open' })
    const listed = await client.cache.fetch(q)
    const itemQ = { service: 'support', collection: 'resources', id: listed.items[0]!.id } as const
    await client.cache.fetch(itemQ)
    const state = JSON.parse(JSON.stringify(client.cache.dehydrate())) as ReturnType<ResourceCache['dehydrate']>
    expect(state.entries).toHaveLength(2)

    const browser = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    browser.cache.hydrate(state)
    const requests = emu.stats.requests
    // Same key, params in another order.
    const w = track(browser.cache, list('support', { status: 'open', limit: 3 }))
    const item = track<ItemSnapshot>(browser.cache, itemQ)
    expect(w.last()).toMatchObject({ status: 'success', isFetching: false, isStale: false })
    expect(w.last().items).toEqual(listed.items)
    expect(item.last().data).toEqual(listed.items[0])
    expect(emu.stats.requests).toBe(requests)
    w.off()
    item.off()
  })

  it('focus and reconnect triggers refetch watched entries only when stale', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const focus = createTrigger()
    const online = createTrigger()
    const { emu, client } = await setup({ client: { cache: { focusManager: focus, onlineManager: online } } })
    const count = () => emu.stats.byService.maps
    const w = track(client.cache, list('maps'), { staleTime: 30_000 })
    const quiet = track(client.cache, list('maps', { limit: 3 }), {
      staleTime: 30_000,
      refetchOnFocus: false,
      refetchOnReconnect: false,
    })
    await Promise.all([w.until(settled), quiet.until(settled)])
    const start = count()

    focus.fire()
    online.fire()
    expect(count()).toBe(start)
    expect(w.last().isFetching).toBe(false)

    vi.advanceTimersByTime(30_001)
    focus.fire()
    expect(w.last().isFetching).toBe(true)
    expect(quiet.last().isFetching).toBe(false)
    await w.until((s) => settled(s) && !s.isStale)
    expect(count() - start).toBe(1)

    vi.advanceTimersByTime(30_001)
    online.fire()
    await w.until((s) => settled(s) && !s.isStale)
    expect(count() - start).toBe(2)
    w.off()
    quiet.off()
    focus.fire() // nobody watches: nothing happens
    expect(count() - start).toBe(2)
  })

  it('refetchInterval refetches while watched and stops when unwatched', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const { emu, client } = await setup()
    const w = track(client.cache, list('realtime'), { refetchInterval: 1_000 })
    await w.until(settled)
    const start = emu.stats.byService.realtime
    vi.advanceTimersByTime(1_000)
    expect(w.last().isFetching).toBe(true)
    await w.until(settled)
    expect(emu.stats.byService.realtime - start).toBe(1)
    w.off()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('an item entry fetches the item; a failure is an error state, and fetch() rejects', async () => {
    const { client } = await setup()
    const item = track<ItemSnapshot>(client.cache, { service: 'maps', collection: 'resources', id: 'res_missing' })
    const s = await item.until(settled)
    expect(s).toMatchObject({ status: 'error', data: undefined, error: { name: 'ApiError', status: 404 } })
    await expect(
      client.cache.fetch({ service: 'maps', collection: 'resources', id: 'res_missing' }),
    ).rejects.toMatchObject({ status: 404 })
    await expect(client.cache.prefetch({ service: 'maps', collection: 'BAD NAME' })).resolves.toBeUndefined()
    item.off()
  })
})
