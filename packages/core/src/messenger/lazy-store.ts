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
