import { describe, expect, it } from 'vitest'
import { setup } from '../helpers.js'
import { list, settled, track } from './helpers.js'

describe('structural sharing', () => {
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
})
