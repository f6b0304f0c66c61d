import { createStore, type Store } from '../store.js'
import type { Unsubscribe } from '../types.js'

/**
 * A store that runs while it has listeners: each `subscribe` takes a hold through `acquire`
 * (a pool's lease: started on the first, stopped a lease delay after the last, so React
 * StrictMode's mount–unmount–mount neither stops nor reloads anything).
 */
export function createLazyStore<T>(initial: T, acquire: () => Unsubscribe): Store<T> {
  const store = createStore(initial)
  return {
    ...store,
    subscribe(listener) {
      const off = store.subscribe(listener)
      const release = acquire()
      return () => {
        off()
        release()
      }
    },
  }
}

/** Whether two flat records hold the same values (a conversation, before and after a push). */
export function sameFields(a: object, b: object): boolean {
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  const keys = Object.keys(x)
  return keys.length === Object.keys(y).length && keys.every((k) => Object.is(x[k], y[k]))
}

/** Whether `next` is no older than `current` (by `modifiedAt`), so it may replace it. */
export const notOlder = (next: { modifiedAt: string }, current: { modifiedAt: string }): boolean =>
  Date.parse(next.modifiedAt) >= Date.parse(current.modifiedAt)
