// Stores shaped for UI bindings (`subscribe` + `getSnapshot` that returns the same object until
// something changed): React's useSyncExternalStore, Vue's shallowRef, Svelte's readable.
import type { RealtimeError, Unsubscribe } from '@tandem/core'
import { createEmitter } from './core.js'
import type { Realtime } from './realtime.js'
import { leaseChannel } from './lease.js'
import type { ConnectionState, Message } from './types.js'

export interface Store<S> {
  subscribe: (listener: () => void) => Unsubscribe
  getSnapshot: () => S
}

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

export interface Feed<T> extends Store<readonly T[]> {
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

export interface MessageStoreOptions {
  /** Only this event's messages. */
  event?: string
  /** How many of the last messages to keep. */
  keep: number
  /**
   * When listeners are told of new messages.
   * @default `nextFrame` (once per animation frame)
   */
  schedule?: Schedule
}

/**
 * The last `keep` messages of a channel (or of one event) as a store. It holds the channel (a
 * lease, StrictMode-safe) while it has listeners, so creating one costs nothing until it is read.
 */
export function createMessageStore<T = unknown>(
  rt: Realtime,
  name: string,
  { event, keep, schedule }: MessageStoreOptions,
): Store<readonly Message<T>[]> {
  const feed = createFeed<Message<T>>(keep, schedule)
  const channel = rt.channel(name)
  let listeners = 0
  let release: Unsubscribe | undefined
  return {
    subscribe(listener) {
      const off = feed.subscribe(listener)
      if (listeners++ === 0) {
        const lease = leaseChannel(rt, name)
        const push = (m: Message<T>) => feed.push(m)
        const unsubscribe = event === undefined ? channel.subscribe<T>(push) : channel.subscribe<T>(event, push)
        release = () => {
          unsubscribe()
          lease()
        }
      }
      return () => {
        off()
        if (--listeners > 0) return
        release?.()
        release = undefined
      }
    },
    getSnapshot: feed.getSnapshot,
  }
}

export interface ConnectionSnapshot {
  state: ConnectionState
  /** When the next attempt starts, while `reconnecting`: in ms from the state change… */
  retryInMs?: number
  /** …and as a time (epoch ms), so a countdown stays right however late it renders. */
  retryAt?: number
  error?: RealtimeError
}

const connections = new WeakMap<Realtime, Store<ConnectionSnapshot>>()

/** The connection's state as a store (one per client, shared by every caller). */
export function connectionStore(rt: Realtime): Store<ConnectionSnapshot> {
  let store = connections.get(rt)
  if (store) return store
  let snap: ConnectionSnapshot = { state: rt.state }
  const emitter = createEmitter<{ change: () => void }>()
  rt.on('state', ({ current, retryInMs, error }) => {
    snap = {
      state: current,
      ...(retryInMs !== undefined ? { retryInMs, retryAt: Date.now() + retryInMs } : {}),
      ...(error ? { error } : {}),
    }
    emitter.emit('change')
  })
  connections.set(rt, (store = { subscribe: (l) => emitter.on('change', l), getSnapshot: () => snap }))
  return store
}
