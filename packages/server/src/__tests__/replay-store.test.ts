import { describe, expect, it } from 'vitest'
import { createMemoryReplayStore } from '../replay-store.js'

describe('createMemoryReplayStore', () => {
  it('forgets ids after their ttl and stays bounded', () => {
    let now = 1_000_000
    const store = createMemoryReplayStore({ maxEntries: 3, now: () => now })
    store.remember('a', 10)
    expect(store.seen('a')).toBe(true)
    now += 10_000
    expect(store.seen('a')).toBe(false)
    for (const id of ['b', 'c', 'd', 'e']) store.remember(id, 60)
    expect(['b', 'c', 'd', 'e'].map((id) => store.seen(id))).toEqual([false, true, true, true])
    expect(() => createMemoryReplayStore({ maxEntries: 0 })).toThrow(RangeError)
  })
})
