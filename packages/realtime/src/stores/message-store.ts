import type { ReadableStore, Unsubscribe } from '@tandem/core'
import { leaseChannel } from '../channels/lease.js'
import type { Realtime } from '../realtime.js'
import type { Message } from '../types.js'
import { createFeed, type Schedule } from './feed.js'

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
): ReadableStore<readonly Message<T>[]> {
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
