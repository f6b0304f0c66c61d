import { createMessageLog, type MessageLogSnapshot } from '@tandem/realtime'
import { useEffect, useMemo, useSyncExternalStore } from 'react'
import { useRealtime } from './use-realtime.js'

export interface UseMessagesOptions {
  /** Only this event's messages. */
  event?: string
  /**
   * How many of the newest messages to load from history on join.
   * @default 50
   */
  initial?: number
  /**
   * The most messages held (live ones push the oldest out).
   * @default 10_000
   */
  max?: number
  /**
   * `true`: keep collecting, but do not re-render (a hidden panel); the latest messages show when
   * it turns `false` again.
   * @default false
   */
  paused?: boolean
}

export interface MessagesResult<T> extends MessageLogSnapshot<T> {
  /** Reads up to `count` older messages from history (default: `initial`); failures land in `error`. */
  loadEarlier: (count?: number) => Promise<void>
}

const none = () => () => {}
const hold = () => {}

/**
 * A channel's messages for a chat-like list: the newest `initial` from history on mount, then
 * every live message once, in order, with `loadEarlier` for older pages. Re-renders at most once
 * a frame however fast messages come, and not at all while `paused`. A long list renders `chunks`
 * (a memoised component per chunk) rather than `messages`: a new message then re-renders one chunk,
 * and `messages` (built on first read) is never built.
 *
 * @example
 * ```ts
 * const { messages, hasEarlier, loadEarlier } = useMessages<{ text: string }>('chat:lobby', { event: 'message' })
 * ```
 */
export function useMessages<T = unknown>(name: string, options: UseMessagesOptions = {}): MessagesResult<T> {
  const rt = useRealtime()
  const { event, initial, max, paused = false } = options
  const log = useMemo(() => createMessageLog<T>(rt, name, { event, initial, max }), [rt, name, event, initial, max])
  // Holds the log (and its channel) while mounted, paused or not: pausing never loses a message.
  useEffect(() => log.subscribe(hold), [log])
  // While paused, the snapshot taken when it paused: nothing re-renders, nothing is read.
  const frozen = useMemo(() => (paused ? log.getSnapshot() : undefined), [log, paused])
  const snapshot = useSyncExternalStore(
    frozen ? none : log.subscribe,
    frozen ? () => frozen : log.getSnapshot,
    frozen ? () => frozen : log.getSnapshot,
  )
  // The snapshot's own properties, not a spread of them: a spread would read (and build) `messages`,
  // which a list that renders `chunks` never needs. One result per snapshot.
  return useMemo(
    () =>
      Object.defineProperties(
        { loadEarlier: log.loadEarlier },
        Object.getOwnPropertyDescriptors(snapshot),
      ) as MessagesResult<T>,
    [log, snapshot],
  )
}
