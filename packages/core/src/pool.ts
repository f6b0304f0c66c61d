import type { Unsubscribe } from './types.js'

/** Reference-counted holds on keyed things, each closed `delayMs` after its last holder lets go. */
export interface Pool {
  /** Holds `key`, opening it with `open` on the first hold; the returned function lets go (once). */
  acquire: (key: string, open: () => Unsubscribe) => Unsubscribe
  /** Keys open: held, or waiting out their release delay (each of those has one timer). */
  readonly size: number
}

/**
 * A pool whose keys close `delayMs` after their last release, unless held again meanwhile: React
 * StrictMode's mount–unmount–mount (and a component that moves) neither closes nor reopens anything.
 */
export function createPool(delayMs: number): Pool {
  const held = new Map<string, { count: number; close: Unsubscribe; timer?: ReturnType<typeof setTimeout> }>()
  return {
    acquire(key, open) {
      const h = held.get(key) ?? { count: 0, close: open() }
      held.set(key, h)
      clearTimeout(h.timer) // taken again within the delay: nothing was closed, nothing is reopened
      h.timer = undefined
      h.count++
      let done = false
      return () => {
        if (done) return
        done = true
        if (--h.count > 0) return
        h.timer = setTimeout(() => {
          held.delete(key)
          h.close()
        }, delayMs)
      }
    },
    get size() {
      return held.size
    },
  }
}
