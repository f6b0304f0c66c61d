// What a channel (and its presence and history) needs from its client (`ChannelClient`), and what they reach
// through a channel: its own file, so channel.ts, presence.ts and history.ts depend on it and not
// on each other.
import { DEV } from '@tandem/contract/dev'
import type { RealtimeError, Unsubscribe } from '@tandem/core'
import { ValidationError } from '../core.js'
import type { HeldBudget } from './held.js'
import type { ClientFrame, FrameOf, SubscribeResult } from '../connection/protocol.js'
import type { Timing } from '../requests/send-queue.js'
import type { AppRequest, ReplyTo } from '../requests/requests.js'
import type { Channel, Member } from '../types.js'

/** A publish as sent: what a durable outbox stores, and its type. */
export type PublishFrame = { type: 'publish'; channel: string; event: string; data: unknown; idempotencyKey: string }

/** What a channel needs from the connection. */
export interface ChannelClient {
  /** Sends when connected (and `ready`), again on each new connection, until a reply or a deadline (`Timing`). */
  request: <T extends AppRequest>(
    frame: ClientFrame & { type: T },
    timing?: Partial<Timing>,
    ready?: () => boolean,
  ) => Promise<ReplyTo<T>>
  /** `request` for a publish; with a durable outbox (the `outbox` option), stored before it is sent. */
  publish: (frame: PublishFrame, timing: Partial<Timing>) => Promise<FrameOf<'ack'>>
  /** The channel's lease count went from 0 to 1 or back: (un)subscribe in the next batch. */
  changed: () => void
  error: (error: RealtimeError) => void
  /** Room for live messages held meanwhile (one budget for the client's channels). */
  held: HeldBudget
  /** The wait before retry `attempt` (0, 1, …) of a failed gap read: the client's backoff. */
  retryDelay: (attempt: number) => number
}

/** What `presence(channel)` and `history(channel)` reach through a channel. */
export interface ChannelHost {
  name: string
  /** Keeps the channel subscribed (presence needs it, and presence events come through it). */
  lease: () => Unsubscribe
  /** Presence requests wait until the channel is subscribed on this connection (when it is wanted at all). */
  ready: () => boolean
  request: ChannelClient['request']
}

/** A channel's presence once `presence(channel)` made it: the channel hands it presence frames, the resubscribe its re-enter. */
export interface AttachedPresence {
  /** What this client entered with, to re-enter after a reconnect that did not keep it. */
  readonly entered: { data: unknown } | undefined
  reenter: () => Promise<void> | undefined
  event: (frame: FrameOf<'presence.event'>) => void
  /** The member tables of the presence stores tracking the channel now (what `rt.channels()` shows). */
  readonly known: Set<() => Member[]>
}

/** The internal side of a channel: presence and history are entries of their own, attached here on first use. */
export interface ChannelInternals {
  readonly host: ChannelHost
  attached?: AttachedPresence
}

/** The internals of a channel from `rt.channel()`; anything else is refused by name. */
export function internalsOf(channel: unknown): ChannelInternals {
  const internals = channel as Partial<ChannelInternals> | null
  if (!internals?.host)
    throw new ValidationError(
      'channel',
      DEV && process.env.NODE_ENV !== 'production' && 'must be a channel from rt.channel(name)',
    )
  return internals as ChannelInternals
}

/** A channel as the client drives it: its public face and what the client and the subscriptions call. */
export interface ChannelImpl extends Channel, ChannelInternals {
  readonly leases: number
  /** Message listeners now (`subscribe` calls not yet undone). */
  readonly subscribers: number
  /** The connection is gone: hold messages until the resubscribe answers. */
  suspend: () => void
  /** This channel's result in a `subscribed` reply (or `{ error }`). */
  subscribed: (result: SubscribeResult) => void
  /** `bytes`: the frame's size, counted against the held budget while the channel holds. */
  message: (frame: FrameOf<'message'> | FrameOf<'presence.event'>, bytes?: number) => void
}
