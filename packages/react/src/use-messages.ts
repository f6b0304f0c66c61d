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
 * a frame however fast messages come, and not at all while `paused`.
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
  return { ...snapshot, loadEarlier: log.loadEarlier }
}
