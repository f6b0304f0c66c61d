// What the service vouches for in the member data of `support:conversations:presence` (the hub runs
// this after the data matched ResourcePresenceData): the `name` other agents and customers see is
// the agent's verified one, never the member's; each new lock claim gets `acquiredAt` from the
// service's clock, unique and increasing per channel, so the earliest claim is the service's order
// and a back-dated claim wins nothing.
import {
  CUSTOMER_PRESENCE_PREFIX,
  LIMITS,
  resourcePresenceChannel,
  showableName,
  type ResourcePresenceData,
} from '@tandem/contract'
import { RtError } from '../realtime/frames.js'
import type { MemberPolicy, MemberWriter } from '../realtime/member-policy.js'
import type { Agent } from './types.js'

export const PRESENCE_CHANNEL = resourcePresenceChannel('support/conversations')

/** One lock claim as the service stamped it. */
interface Claim {
  /** The `acquiredAt` the claimant sent first: a renewal may send it back. */
  sent: number
  stamp: number
  ttlMs: number
}

interface MemberRecord {
  name: string | null
  claims: Map<string, Claim>
}

export interface PresencePolicy extends MemberPolicy {
  /** The verified name shown for a member (null: none known); undefined when it has written nothing. */
  nameOf(app: string, connectionId: string): string | null | undefined
  /** The member left: its claims go with it. */
  left(app: string, connectionId: string): void
  reset(): void
}

/** `agents`: the service's agent table (the seed's), read when a token has no profile name. */
export function createPresencePolicy(agents: () => readonly Agent[]): PresencePolicy {
  /** By app and connection: the member's verified name and lock claims. */
  const members = new Map<string, MemberRecord>()
  /** By app: the last stamp given, so the next is later (no two claims tie). */
  const lastStamp = new Map<string, number>()
  const keyOf = (app: string, connectionId: string) => `${app}\u0000${connectionId}`

  /** The token's profile name, else the agent record whose id is the subject, else null. */
  const verifiedName = ({ profile, subject }: MemberWriter): string | null => {
    const name = profile?.name ?? agents().find((a) => a.id === subject)?.name
    const shown = name === undefined ? '' : showableName(name).slice(0, LIMITS.personName)
    return shown === '' ? null : shown
  }
  const stamp = (app: string, now: number): number => {
    const at = Math.max(now, (lastStamp.get(app) ?? -1) + 1)
    lastStamp.set(app, at)
    return at
  }

  return {
    accept(data, who, now) {
      // Those clientIds are the service's typing customers: an agent must not pass for one.
      if (who.subject.startsWith(CUSTOMER_PRESENCE_PREFIX))
        throw new RtError('forbidden', `A member's clientId may not start "${CUSTOMER_PRESENCE_PREFIX}" here.`)
      const d = data as ResourcePresenceData // the hub checked it against the schema
      const key = keyOf(who.app, who.connectionId)
      const held = members.get(key)?.claims
      const claims = new Map<string, Claim>()
      const locks = d.locks.map(({ id, acquiredAt, ttlMs }) => {
        if (claims.has(id)) throw new RtError('bad_request', '"data.locks" must hold at most one lock per id.')
        const had = held?.get(id)
        // A renewal: an unlapsed claim of this member, named by what it sent first or by our stamp.
        const renewal = had && had.stamp + had.ttlMs > now && (acquiredAt === had.sent || acquiredAt === had.stamp)
        const claim = renewal ? { ...had, ttlMs } : { sent: acquiredAt, stamp: stamp(who.app, now), ttlMs }
        claims.set(id, claim)
        return { id, acquiredAt: claim.stamp, ttlMs }
      })
      const name = verifiedName(who)
      members.set(key, { name, claims })
      return { name, viewing: d.viewing, typing: d.typing, locks } satisfies ResourcePresenceData
    },
    nameOf: (app, connectionId) => members.get(keyOf(app, connectionId))?.name,
    left: (app, connectionId) => void members.delete(keyOf(app, connectionId)),
    reset() {
      members.clear()
      lastStamp.clear()
    },
  }
}
