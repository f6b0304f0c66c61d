import type { PushController, PushState } from '@tandem/core/push'
import { useCallback, useSyncExternalStore } from 'react'

/** The server's: no browser, so no push (a page decides once it runs). */
const SERVER: PushState = { status: 'unsupported', reason: null, error: null }
const server = () => SERVER

/**
 * Where web push stands for this page (`status`, its `reason`, an `error`), for a "Notify me"
 * button. Re-renders only when it changes; all the logic is `createPush` of @tandem/core/push.
 *
 * @example
 * ```tsx
 * const { status } = usePush(push)
 * if (status === 'unsupported' || status === 'denied') return null
 * return <button onClick={() => (status === 'subscribed' ? push.disable() : push.enable())}>Notify me</button>
 * ```
 */
export function usePush(push: PushController): PushState {
  // Called through the controller, not detached: it may be any object with these methods.
  const subscribe = useCallback((listener: () => void) => push.subscribe(listener), [push])
  const getSnapshot = useCallback(() => push.getSnapshot(), [push])
  return useSyncExternalStore(subscribe, getSnapshot, server)
}
