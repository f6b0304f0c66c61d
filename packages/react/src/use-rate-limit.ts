import { watchRateLimit, type RateLimitSnapshot, type ServiceName } from '@tandem/core'
import { useMemo, useSyncExternalStore } from 'react'
import { useTandem } from './use-tandem.js'

/**
 * A service's rate-limit queue: how many requests wait, and until when. Re-renders only when
 * the queue changes.
 *
 * @example
 * ```tsx
 * const { queued, until } = useRateLimit('maps')
 * return queued ? <p role="status">Busy: about {Math.ceil((until - Date.now()) / 1000)} s</p> : null
 * ```
 */
export function useRateLimit(service: ServiceName): RateLimitSnapshot {
  const { client } = useTandem()
  const store = useMemo(() => watchRateLimit(client, service), [client, service])
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
