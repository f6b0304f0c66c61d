import { describe, expect, it } from 'vitest'
import { setup } from '../helpers.js'
import { list, settled, track } from './helpers.js'
import { replaceEqualDeep } from '../../cache/structural-sharing.js'

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

describe('structural sharing of keys named like Object.prototype members', () => {
  it('copies `__proto__`, `constructor` and `prototype` as the own keys JSON.parse gives, never a prototype', () => {
    const text = '{"a":{"__proto__":{"isAdmin":true},"constructor":{"x":1},"prototype":2,"n":1}}'
    const prev = JSON.parse('{"a":{"n":0}}') as { a: Record<string, unknown> }
    const next = JSON.parse(text) as { a: Record<string, unknown> }
    const out = replaceEqualDeep(prev, next)
    expect(Object.getPrototypeOf(out.a)).toBe(Object.prototype)
    expect(out.a.isAdmin).toBeUndefined()
    expect(Object.keys(out.a)).toEqual(Object.keys(next.a))
    expect(JSON.stringify(out)).toBe(text)
    expect(Object.getOwnPropertyDescriptor(out.a, '__proto__')?.value).toEqual({ isAdmin: true })
    // An equal answer keeps the previous object; a prototype member is never read as a key it holds.
    expect(replaceEqualDeep(out, JSON.parse(text))).toBe(out)
    expect(replaceEqualDeep({ a: {} }, { a: { constructor: 1 } }).a).toEqual({ constructor: 1 })
  })
})
