import type { RealtimeError } from '@tandem/core'
import type { ChannelImpl } from './channel.js'
import { MAX_CHANNELS_PER_FRAME } from '../defaults.js'
import type { ClientFrame, Reply, SubscribeResult } from '../connection/protocol.js'

export interface SubscriptionsOptions {
  channels: Map<string, ChannelImpl>
  call: (frame: ClientFrame, onReply?: (reply: Reply) => void) => boolean
  maxBytes: () => number
  /** The server took over the old connection's presence (`connected.resumed`). */
  resumed: () => boolean
  /** Every subscribe frame of this round has its reply: queued requests may go. */
  done: () => void
  error: (error: RealtimeError) => void
}

export interface Subscriptions {
  /** Sends one subscribe frame for every channel that wants one, and the unsubscribes. */
  sync(): void
  /** The socket is gone: nothing is subscribed on the next one yet. */
  lost(): void
}

/** A channel's entry in a subscribe frame; without a position, JSON leaves `since` out. */
const entry = (ch: ChannelImpl) => ({ channel: ch.name, since: ch.position })

export function createSubscriptions(o: SubscriptionsOptions): Subscriptions {
  // Channels subscribed on the current connection (or with their subscribe frame out).
  const onServer = new Set<string>()
  // Of those, the ones whose subscribe frame has no reply yet.
  const inFlight = new Set<string>()

  /** One frame, split only past the service's limits (1000 channels, maxMessageBytes). */
  function batches(subs: ChannelImpl[]): ChannelImpl[][] {
    const out: ChannelImpl[][] = []
    let batch: ChannelImpl[] | undefined
    let size = 0
    for (const ch of subs) {
      const bytes = JSON.stringify(entry(ch)).length + 1
      if (!batch || (size += bytes) > o.maxBytes() - 64 || batch.length >= MAX_CHANNELS_PER_FRAME) {
        out.push((batch = []))
        size = bytes
      }
      batch.push(ch)
    }
    return out
  }

  function subscribe(batch: ChannelImpl[], settled: () => void) {
    for (const ch of batch) {
      onServer.add(ch.name)
      inFlight.add(ch.name)
    }
    o.call({ type: 'subscribe', channels: batch.map(entry) }, (reply) => {
      const results = new Map<unknown, SubscribeResult>()
      if (reply.type === 'subscribed')
        for (const r of reply.channels) results.set((r as SubscribeResult | null)?.channel, r)
      for (const ch of batch) {
        inFlight.delete(ch.name)
        const resuming = ch.position !== undefined
        ch.subscribed(
          results.get(ch.name) ?? {
            channel: ch.name,
            error: ('error' in reply && reply.error) || { code: 'bad_frame', message: 'No subscribe result' },
          },
        )
        if (ch.state === 'failed') onServer.delete(ch.name)
        // A reconnect that did not keep our presence: enter again, with the last data.
        else if (resuming && !o.resumed()) ch.attached?.reenter()?.catch(o.error)
      }
      settled()
    })
  }

  return {
    sync() {
      const subs: ChannelImpl[] = []
      const unsubs: string[] = []
      for (const ch of o.channels.values()) {
        const { name, leases, state } = ch
        // Also when re-leased in the same tick it was released (still on the server, but reset to
        // 'subscribing'): subscribe again; the service treats it as idempotent and we resume.
        const wanted = !onServer.has(name) || (!inFlight.has(name) && state === 'subscribing')
        if (leases && state !== 'failed' && wanted) subs.push(ch)
        else if (!leases && onServer.delete(name)) unsubs.push(name)
      }
      if (unsubs.length) o.call({ type: 'unsubscribe', channels: unsubs })
      const all = batches(subs)
      let open = all.length
      for (const batch of all) subscribe(batch, () => --open === 0 && o.done())
      if (!open) o.done()
    },
    lost() {
      onServer.clear()
      inFlight.clear()
    },
  }
}
