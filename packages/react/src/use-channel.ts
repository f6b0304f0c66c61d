import {
  createMessageStore,
  leaseChannel,
  type Channel,
  type ChannelState,
  type Message,
  type PublishAck,
} from '@tandem/realtime'
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import { useRealtime } from './use-realtime.js'

export interface UseChannelOptions {
  /**
   * Only this event's messages (for `onMessage` and `messages`).
   * @default every event
   */
  event?: string
  /**
   * Keep the last `keep` messages in `messages`, re-rendering at most once a frame; 0 keeps none.
   * @default 0
   */
  keep?: number
  /**
   * `false`: do not subscribe.
   * @default true
   */
  enabled?: boolean
}

export interface ChannelResult<T> {
  channel: Channel
  state: ChannelState
  publish: (event: string, data?: unknown) => Promise<PublishAck>
  /** The last `options.keep` messages, oldest first (empty unless `keep` is set). */
  messages: readonly Message<T>[]
}

const EMPTY: readonly never[] = []
const empty = () => EMPTY
const none = () => () => {}

/**
 * Subscribes to a channel while mounted. `onMessage` may change on every render (the latest one
 * is called). The subscription is a lease released a little after unmount, so StrictMode's
 * mount–unmount–mount sends one `subscribe` and loses nothing.
 *
 * @example
 * ```ts
 * const { messages, publish, state } = useChannel<{ text: string }>('chat:lobby', undefined, { keep: 50 })
 * ```
 */
export function useChannel<T = unknown>(
  name: string,
  onMessage?: (message: Message<T>) => void,
  options: UseChannelOptions = {},
): ChannelResult<T> {
  const rt = useRealtime()
  const { event, keep = 0, enabled = true } = options
  const channel = rt.channel(name)
  const callback = useRef(onMessage)
  // Declared before the subscription, so the latest callback is in place before any message.
  useEffect(() => {
    callback.current = onMessage
  })

  useEffect(() => {
    if (!enabled) return
    const release = leaseChannel(rt, name)
    const listener = (m: Message<T>) => callback.current?.(m)
    const off = event === undefined ? channel.subscribe<T>(listener) : channel.subscribe<T>(event, listener)
    return () => {
      off()
      release()
    }
  }, [rt, channel, name, event, enabled])

  const state = useSyncExternalStore(
    useCallback((cb: () => void) => channel.on('state', cb), [channel]),
    () => channel.state,
    () => channel.state,
  )
  // A store subscribes nothing until read, so one made for a discarded render costs nothing.
  const store = useMemo(
    () => (keep > 0 && enabled ? createMessageStore<T>(rt, name, { event, keep }) : undefined),
    [rt, name, event, keep, enabled],
  )
  const messages = useSyncExternalStore(
    store?.subscribe ?? none,
    store?.getSnapshot ?? empty,
    store?.getSnapshot ?? empty,
  )
  const publish = useCallback((ev: string, data?: unknown) => channel.publish(ev, data), [channel])
  return { channel, state, publish, messages }
}
