import { leaseChannel, type Member } from '@tandem/realtime'
import { presence as presenceOf, presenceStore } from '@tandem/realtime/presence'
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import { useRealtime } from './use-realtime.js'

export interface PresenceResult<T> {
  /** Everyone present, this client included once it has entered. */
  members: readonly Member<T>[]
  enter(data?: T): Promise<void>
  update(data?: T): Promise<void>
  leave(): Promise<void>
}

/**
 * A channel's presence. With `data`, this client enters on mount, updates when `data` changes
 * (by value) and leaves on unmount; without it, it only watches (call `enter` yourself).
 *
 * @example
 * ```ts
 * const { members } = usePresence('chat:lobby', { name: 'Ada' }) // enters on mount, leaves on unmount
 * ```
 */
export function usePresence<T = unknown>(name: string, data?: T): PresenceResult<T> {
  const rt = useRealtime()
  const channel = rt.channel(name)
  const presence = presenceOf(channel)
  const store = useMemo(() => presenceStore(channel), [channel])
  const present = data !== undefined
  const key = JSON.stringify(data)
  const sent = useRef<string | undefined>(undefined)
  const latest = useRef(data)
  // Declared first: the enter below sends the latest data.
  useEffect(() => {
    latest.current = data
  })

  // Watching needs the channel; the lease keeps it across StrictMode's remount.
  useEffect(() => leaseChannel(rt, name), [rt, name])
  const members = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot) as readonly Member<T>[]
  useEffect(() => {
    if (!present) return
    sent.current = JSON.stringify(latest.current)
    presence.enter(latest.current).catch(() => {}) // refusals reach channel.on('error')
    return () => {
      sent.current = undefined
      presence.leave().catch(() => {})
    }
  }, [presence, present])
  useEffect(() => {
    // By value: a new object with the same content sends nothing.
    if (sent.current === undefined || sent.current === key) return
    sent.current = key
    presence.update(data).catch(() => {})
  }, [presence, key, data])

  return { members, enter: presence.enter, update: presence.update, leave: presence.leave }
}
