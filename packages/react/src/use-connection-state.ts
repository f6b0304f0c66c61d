import { connectionStore, type ConnectionSnapshot } from '@tandem/realtime'
import { useSyncExternalStore } from 'react'
import { useRealtime } from './use-realtime.js'

/**
 * The realtime connection's `{ state, retryInMs, error }`, re-rendering on each change.
 *
 * @example
 * ```ts
 * const { state, retryAt } = useConnectionState()
 * ```
 */
export function useConnectionState(): ConnectionSnapshot {
  const store = connectionStore(useRealtime())
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
