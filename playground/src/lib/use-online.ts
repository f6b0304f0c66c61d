import { useSyncExternalStore } from 'react'

const subscribe = (onChange: () => void) => {
  addEventListener('online', onChange)
  addEventListener('offline', onChange)
  return () => {
    removeEventListener('online', onChange)
    removeEventListener('offline', onChange)
  }
}

/** `navigator.onLine`, followed: a sentence about being offline changes when the browser comes back. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  )
}
