import { describe, expect, it } from 'vitest'
import { createClient, type ItemSnapshot, type Resource, type ResourceCache } from '../../index.js'
import { setup } from '../helpers.js'
import { list, settled, track } from './helpers.js'

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
