import type { Unsubscribe } from './types.js'

/** A value to watch: `getSnapshot` returns the same reference until `set` changes it (for `useSyncExternalStore`). */
export interface Store<T> {
  getSnapshot: () => T
  subscribe: (listener: () => void) => Unsubscribe
  /** A new value, or a function of the current one; listeners are told only when it changes. */
  set: (next: T | ((current: T) => T)) => void
}

/** A store seen from outside: watched, never set (what `useSyncExternalStore` takes). */
export type ReadableStore<T> = Pick<Store<T>, 'getSnapshot' | 'subscribe'>

/** The smallest store (as zustand's vanilla core): one value, its listeners. */
export function createStore<T>(initial: T): Store<T> {
  let value = initial
  const listeners = new Set<() => void>()
  return {
    getSnapshot: () => value,
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    set(next) {
      const v = typeof next === 'function' ? (next as (current: T) => T)(value) : next
      if (Object.is(v, value)) return
      value = v
      listeners.forEach((l) => l())
    },
  }
}
