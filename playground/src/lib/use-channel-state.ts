import type { ChannelState } from '@tandem/realtime'
import { useRealtime } from '@tandem/react/realtime'
import { useCallback, useSyncExternalStore } from 'react'

/** A channel's subscription state, without subscribing to it (for "live" badges). */
export function useChannelState(name: string): ChannelState {
  const channel = useRealtime().channel(name)
  const subscribe = useCallback((cb: () => void) => channel.on('state', cb), [channel])
  return useSyncExternalStore(
    subscribe,
    () => channel.state,
    () => channel.state,
  )
}
