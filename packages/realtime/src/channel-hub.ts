// What a channel (and its presence) needs from the connection: its own file, so channel.ts and
// presence.ts both depend on it and not on each other.
import type { RealtimeError } from '@tandem/core'
import type { HeldBudget } from './held.js'
import type { ClientFrame } from './protocol.js'
import type { Timing } from './outbox.js'
import type { AppRequest, ReplyTo } from './requests.js'

/** What a channel needs from the connection. */
export interface Hub {
  /** Sends when connected (and `ready`), again on each new connection, until a reply or a deadline (`Timing`). */
  request: <T extends AppRequest>(
    frame: ClientFrame & { type: T },
    timing?: Partial<Timing>,
    ready?: () => boolean,
  ) => Promise<ReplyTo<T>>
  /** The channel's lease count went from 0 to 1 or back: (un)subscribe in the next batch. */
  changed: () => void
  error: (error: RealtimeError) => void
  /** Room for live messages held meanwhile (one budget for the client's channels). */
  held: HeldBudget
  /** The wait before retry `attempt` (0, 1, …) of a failed gap read: the client's backoff. */
  retryDelay: (attempt: number) => number
}
