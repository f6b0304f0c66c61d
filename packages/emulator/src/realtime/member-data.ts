// A presence write's data, before the hub stores it: the channel's schema (when the contract
// declares one), the size cap every member has, the caps on members, then the policy of the
// service that owns the channel. Every refusal names its reason; nothing is stored on a refusal.
import { MAX_CONNECTION_PRESENCE, MAX_MEMBER_DATA_BYTES, MAX_PRESENCE_MEMBERS } from '@tandem/contract'
import { memberProblem } from '../spec/member-inputs.js'
import type { Channel } from './channel-state.js'
import type { Connection } from './connection.js'
import { RtError } from './frames.js'
import type { MemberPolicy } from './member-policy.js'
import type { Identity } from './token-auth.js'

/** The data to store for `conn`'s member of `channel`, or an RtError thrown. */
export function acceptMember(
  policies: ReadonlyMap<string, MemberPolicy>,
  conn: Connection,
  me: Identity,
  channel: Channel,
  data: unknown,
  now = Date.now(),
): unknown {
  const value = data === undefined ? null : data
  const problem = memberProblem(channel.name, value)
  if (problem) throw new RtError('bad_request', problem)
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_MEMBER_DATA_BYTES)
    throw new RtError('message_too_large', `"data" must serialise to at most ${MAX_MEMBER_DATA_BYTES} bytes.`)
  if (!conn.presence.has(channel.name) && conn.presence.size >= MAX_CONNECTION_PRESENCE)
    throw new RtError(
      'limit_reached',
      `A connection is a member of at most ${MAX_CONNECTION_PRESENCE} channels; leave one first.`,
    )
  if (!channel.members.has(conn.id) && channel.members.size >= MAX_PRESENCE_MEMBERS)
    throw new RtError('limit_reached', `"${channel.name}" has ${MAX_PRESENCE_MEMBERS} members, its most.`)
  const policy = policies.get(channel.name)
  if (!policy) return value
  const who = {
    app: me.app,
    connectionId: conn.id,
    subject: me.subject,
    ...(me.profile ? { profile: me.profile } : {}),
  }
  const accepted = policy.accept(value, who, now)
  // The service relays nothing its own contract refuses, its own stamps included.
  const own = memberProblem(channel.name, accepted)
  if (own) throw new RtError('internal', `The service's member data broke its contract: ${own}`)
  return accepted
}
