// Stores shaped for UI bindings (`subscribe` + `getSnapshot` that returns the same object until
// something changed): React's useSyncExternalStore, Vue's shallowRef, Svelte's readable.
// The one store interface is core's (`Store`, read-only here: `ReadableStore`).
import type { ReadableStore } from '@tandem/core'
import { createEmitter } from '../core.js'

/** Runs `flush` once, on the next animation frame (or ~16 ms where there are none); returns a cancel. */
export type Schedule = (flush: () => void) => () => void

export const nextFrame: Schedule = (flush) => {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(flush)
    return () => cancelAnimationFrame(id)
  }
  const id = setTimeout(flush, 16)
  return () => clearTimeout(id)
}

export interface Feed<T> extends ReadableStore<readonly T[]> {
  push: (item: T) => void
}

/**
 * The last `keep` items, with listeners told at most once per `schedule` tick: a burst of a
 * thousand messages costs a frame's worth of renders, not a thousand.
 */
export function createFeed<T>(keep: number, schedule: Schedule = nextFrame): Feed<T> {
  const emitter = createEmitter<{ change: () => void }>()
  let items: readonly T[] = []
  let pending: T[] = []
  let cancel: (() => void) | undefined
  let listeners = 0
  const flush = () => {
    cancel = undefined
    items = [...items, ...pending].slice(-keep)
    pending = []
    emitter.emit('change')
  }
  return {
    push(item) {
      pending.push(item)
      if (pending.length > keep) pending.shift()
      if (!cancel && listeners > 0) cancel = schedule(flush)
    },
    subscribe(listener) {
      listeners++
      const off = emitter.on('change', listener)
      if (pending.length && !cancel) cancel = schedule(flush)
      return () => {
        off()
        // Nobody is left to tell: no timer outlives the last listener.
        if (--listeners > 0) return
        cancel?.()
        cancel = undefined
      }
    },
    getSnapshot: () => items,
  }
}
