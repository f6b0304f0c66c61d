import {
  collectionPresence,
  resourcePresence,
  type Activity,
  type LockOptions,
  type PresenceCollection,
  type ResourcePresence,
  type ResourcePresenceOptions,
  type ResourcePresenceSnapshot,
} from '@tandem/realtime/resource-presence'
import type { Realtime } from '@tandem/realtime'
import { useMemo, useSyncExternalStore } from 'react'
import { useRealtime } from './use-realtime.js'

export interface ResourcePresenceResult extends ResourcePresenceSnapshot {
  /** Says this agent types in the resource (call on each keystroke; it lapses when they stop). */
  setTyping(typing: boolean): void
  /** Claims or renews the resource's advisory soft lock (see `ResourcePresence.lock`). */
  claimLock(options?: LockOptions): void
  unlock(): void
}

const WAITING: ResourcePresenceSnapshot = { viewers: [], typing: [], lock: null, waiting: null, status: 'connecting' }

/**
 * The handle lives while the store is subscribed: made on mount, closed on unmount (and made again
 * by StrictMode's second mount), so a render alone never tells the other agents anything.
 */
function handleStore(rt: Realtime, path: PresenceCollection, id: string, name: string | null | undefined) {
  let handle: ResourcePresence | undefined
  return {
    subscribe: (listener: () => void) => {
      const h = (handle ??= resourcePresence(rt, path, id, name === undefined ? {} : { name }))
      const off = h.subscribe(listener)
      return () => {
        off()
        h.close()
        handle = undefined
      }
    },
    getSnapshot: () => handle?.getSnapshot() ?? WAITING,
    handle: () => handle,
  }
}

/**
 * This agent on one resource (viewing it while mounted) and the other agents on it: who views,
 * who types, who holds the soft lock. The handle is made on mount and closed on unmount; all the
 * logic is `resourcePresence` in `@tandem/realtime/resource-presence`. The `name` option is a hint:
 * the service shows each agent's verified name (null when it knows none: show the `clientId`).
 *
 * @example
 * ```tsx
 * const { viewers, typing, lock, setTyping, claimLock } = useResourcePresence('support/conversations', id, { name })
 * ```
 */
export function useResourcePresence(
  path: PresenceCollection,
  id: string,
  options: ResourcePresenceOptions = {},
): ResourcePresenceResult {
  const rt = useRealtime()
  const { name } = options
  const store = useMemo(() => handleStore(rt, path, id, name), [rt, path, id, name])
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
  return useMemo(
    () => ({
      ...snapshot,
      setTyping: (typing: boolean) => store.handle()?.setTyping(typing),
      claimLock: (o?: LockOptions) => store.handle()?.lock(o),
      unlock: () => store.handle()?.unlock(),
    }),
    [snapshot, store],
  )
}

/**
 * Who is on which resource of a collection, for a list's rows: ONE subscription for the list,
 * whatever its length (`collectionPresence`).
 *
 * @example
 * ```tsx
 * const rows = useCollectionPresence('support/conversations')
 * const viewers = rows.get(conversation.id)?.viewers ?? []
 * ```
 */
export function useCollectionPresence(path: PresenceCollection): ReadonlyMap<string, Activity> {
  const rt = useRealtime()
  const store = useMemo(() => collectionPresence(rt, path), [rt, path])
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
