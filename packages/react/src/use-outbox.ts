import type { DurableOutbox, OutboxSnapshot } from '@tandem/core/persist'
import { useCallback, useSyncExternalStore } from 'react'

/** The server's: nothing held (an outbox loads what is stored after the page starts). */
const IDLE: OutboxSnapshot = { status: 'idle', mode: 'storage', entries: [] }
const idle = () => IDLE

/**
 * The durable outbox's writes still held (this tab's and the other tabs', oldest first) and its
 * status, for a "3 changes not saved yet" line. Re-renders only when they change; all the logic is
 * `durableOutbox` of @tandem/core/persist.
 *
 * @example
 * ```tsx
 * const { status, entries } = useOutbox(outbox)
 * if (!entries.length) return null
 * return <p role="status">{entries.length} changes waiting{status === 'offline' ? ' for the network' : ''}</p>
 * ```
 */
export function useOutbox(outbox: DurableOutbox): OutboxSnapshot {
  // Called through the outbox, not detached: it may be any object with these methods.
  const subscribe = useCallback((listener: () => void) => outbox.subscribe(listener), [outbox])
  const getSnapshot = useCallback(() => outbox.getSnapshot(), [outbox])
  return useSyncExternalStore(subscribe, getSnapshot, idle)
}
