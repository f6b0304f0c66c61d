import { describe, expect, it } from 'vitest'
import type { Resource } from '../../index.js'
import { setup } from '../helpers.js'
import { list, settled, track } from './helpers.js'

describe('realtime events patch cached data', () => {
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
})
