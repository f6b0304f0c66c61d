import { describe, expect, it } from 'vitest'
import { callQuery, type RequestEvent, type Resource, type TandemClient } from '../../index.js'
import { setup } from '../helpers.js'
import { list, settled, track } from './helpers.js'

// cache.inspect(): what the devtools' cache tab shows and does, against the emulator.

/** Every request the client makes from now on (attempts included). */
function requests(client: TandemClient): RequestEvent[] {
  const seen: RequestEvent[] = []
  client.on('request', (e) => seen.push(e))
  return seen
}

const porto = (client: TandemClient) =>
  callQuery(['maps', 'geocode', 'Porto'], ({ signal }) => client.maps.geocode({ query: 'Porto' }, { signal }))

describe('cache.inspect()', () => {
  it('lists every entry in insertion order: a watched list, an item, a call', async () => {
    const { client } = await setup()
    const watcher = track(client.cache, list('support', { limit: 3 }))
    const { items } = await watcher.until(settled)
    const id = items[0]!.id
    await client.cache.fetch<Resource>({ service: 'support', collection: 'resources', id })
    await client.cache.fetch(porto(client))

    const table = client.cache.inspect()
    expect(
      table.map(({ hash, status, isFetching, observers, error, liveError }) => ({
        hash,
        status,
        isFetching,
        observers,
        error,
        liveError,
      })),
    ).toEqual([
      {
        hash: JSON.stringify(['support', 'resources', null, [['limit', 3]]]),
        status: 'success',
        isFetching: false,
        observers: 1,
        error: null,
        liveError: null,
      },
      {
        hash: JSON.stringify(['support', 'resources', id, null]),
        status: 'success',
        isFetching: false,
        observers: 0,
        error: null,
        liveError: null,
      },
      {
        hash: JSON.stringify(['call', ['maps', 'geocode', 'Porto']]),
        status: 'success',
        isFetching: false,
        observers: 0,
        error: null,
        liveError: null,
      },
    ])
    expect(table[0]!.query).toMatchObject({ service: 'support', collection: 'resources', params: { limit: 3 } })
    expect(table[1]!.query).toMatchObject({ id })
    expect(table[2]!.query.key).toEqual(['maps', 'geocode', 'Porto'])
    for (const e of table) expect(e.dataUpdatedAt).toBeGreaterThan(0)
    // staleTime 0: fetched data is stale at once.
    expect(table.map((e) => e.isStale)).toEqual([true, true, true])

    watcher.off()
    expect(client.cache.inspect()[0]!.observers).toBe(0)
  })

  it('shows a failed entry with its error', async () => {
    const { emu, client } = await setup({ client: { retry: false } })
    emu.faults.failNext(1, { status: 400, code: 'bad_thing' })
    await client.cache.prefetch(list('maps'))
    const [entry] = client.cache.inspect()
    expect(entry).toMatchObject({ status: 'error', error: { name: 'ApiError', code: 'bad_thing' } })
  })

  it('invalidate refetches a watched entry at once, an unwatched one only on its next subscribe', async () => {
    const { client } = await setup()
    const watched = track(client.cache, list('maps', { limit: 2 }))
    await watched.until(settled)
    await client.cache.fetch(list('support', { limit: 2 }))
    const seen = requests(client)
    const [a, b] = client.cache.inspect()

    await a!.invalidate()
    expect(seen.map((e) => `${e.method} ${e.service}${e.path}`)).toEqual(['GET maps/v1/resources'])
    await b!.invalidate()
    expect(seen).toHaveLength(1) // only this entry, and nobody watches it
    expect(client.cache.inspect().map((e) => e.isStale)).toEqual([true, true])

    await b!.refetch()
    expect(seen.map((e) => e.service)).toEqual(['maps', 'support'])
    watched.off()
  })

  it('remove drops an unwatched entry, and starts a watched one over: pending, then fetched', async () => {
    const { client } = await setup()
    const watched = track(client.cache, list('maps', { limit: 2 }))
    const before = await watched.until(settled)
    await client.cache.fetch(list('support', { limit: 2 }))
    const seen = requests(client)
    const [a, b] = client.cache.inspect()

    b!.remove()
    expect(client.cache.inspect().map((e) => e.hash)).toEqual([a!.hash])
    expect(seen).toHaveLength(0)

    const from = watched.seen.length
    a!.remove()
    // Its subscribers see it start over: no data, then a fresh answer.
    expect(watched.seen[from]).toMatchObject({ status: 'pending', data: undefined, items: [] })
    const after = await watched.until((s) => settled(s) && s !== before)
    expect(after.items.map((r) => r.id)).toEqual(before.items.map((r) => r.id))
    expect(seen).toHaveLength(1)
    expect(client.cache.inspect()).toMatchObject([{ hash: a!.hash, status: 'success', observers: 1 }])
    watched.off()
  })
})
