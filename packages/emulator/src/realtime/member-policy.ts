// What another service may do with the member data of a channel it owns (support: resource
// presence), registered on the hub so that realtime code knows nothing of that service.
import type { TokenProfile } from '@tandem/server'

/** Who writes the member, as the service verified it (never what the data says). */
export interface MemberWriter {
  app: string
  connectionId: string
  /** The token's `sub`: the member's clientId. */
  subject: string
  /** The token's `profile` claim, when it has one. */
  profile?: TokenProfile
}

/**
 * Runs on each `presence.enter`/`update` of its channel, after the data matched the channel's
 * schema and size: returns the data to store and relay (the fields the service vouches for set
 * by the service), or throws an `RtError` to refuse it. What it returns is checked against the
 * schema again. What it must remember of a member (what it stamped) it keeps itself, by app and
 * connectionId, and forgets on the member's `leave` event.
 */
export interface MemberPolicy {
  accept(data: unknown, who: MemberWriter, now: number): unknown
}
