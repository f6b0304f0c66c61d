import { describe, expect, it, vi } from 'vitest'
import { createStore } from '../index.js'

describe('createStore', () => {
  it('tells its listeners of a change only, and keeps the reference until then', () => {
    const store = createStore<readonly number[]>([])
    const listener = vi.fn()
    const off = store.subscribe(listener)
    const first = store.getSnapshot()
    store.set((xs) => xs) // the same value: nobody is told
    expect(listener).not.toHaveBeenCalled()
    expect(store.getSnapshot()).toBe(first)
    store.set((xs) => [...xs, 1])
    expect(listener).toHaveBeenCalledTimes(1)
    expect(store.getSnapshot()).toEqual([1])
    off()
    store.set([])
    expect(listener).toHaveBeenCalledTimes(1)
  })
})
