import type { CachePersister, PersistSnapshot } from '@tandem/core/persist'
import { useCallback, useSyncExternalStore, type ReactNode } from 'react'

// Bindings only: restoring, saving and the tabs are `persistCache` of @tandem/core/persist.

/** What the server renders, and so what the first client render of its HTML shows: still restoring. */
const RESTORING: PersistSnapshot = { status: 'restoring', mode: 'storage', restore: undefined }
const restoring = () => RESTORING

export interface PersistGateProps {
  /** `persistCache(client, { key })`, made once (not on each render); undefined renders `children` at once. */
  persister: CachePersister | undefined
  /** Shown until the saved cache is in the client's cache (and on the server). @default null */
  fallback?: ReactNode
  children?: ReactNode
}

/**
 * Renders `fallback` until the saved cache is restored, then `children`: their first render
 * already shows the saved data (the restore fills the cache before it says it is done), stale,
 * so the hooks revalidate it. Without a `persister`, `children` at once: persistence off is one prop.
 *
 * @example
 * ```tsx
 * const persister = persistCache(client, { key: `user:${userId}`, buster: BUILD_ID })
 * <TandemProvider client={client}>
 *   <PersistGate persister={persister} fallback={<Splash />}>
 *     <App />
 *   </PersistGate>
 * </TandemProvider>
 * ```
 */
export function PersistGate({ persister, fallback = null, children }: PersistGateProps) {
  const subscribe = useCallback(
    (listener: () => void) => (persister ? persister.subscribe(listener) : () => {}),
    [persister],
  )
  // A boolean snapshot: the gate renders once when the restore ends, not on each save or mode change.
  const open = useSyncExternalStore(
    subscribe,
    () => !persister || persister.getSnapshot().status === 'restored',
    () => !persister,
  )
  return <>{open ? children : fallback}</>
}

/**
 * The saved cache's status: `restoring` then `restored` (with what the restore found), and its
 * `mode` (`memory` once storage is full or refused). The server's is `restoring`.
 *
 * @example
 * ```tsx
 * const { status, mode, restore } = usePersistStatus(persister)
 * if (mode === 'memory') return <p role="status">This window cannot save: changes last until it closes.</p>
 * ```
 */
export function usePersistStatus(persister: CachePersister): PersistSnapshot {
  // Called through the persister, not detached: it may be any object with these methods.
  const subscribe = useCallback((listener: () => void) => persister.subscribe(listener), [persister])
  const getSnapshot = useCallback(() => persister.getSnapshot(), [persister])
  return useSyncExternalStore(subscribe, getSnapshot, restoring)
}
