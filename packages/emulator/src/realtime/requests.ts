// The requests of an open connection (docs/protocol.md, "Requests"): check capability, act, reply.
// Each frame already matched its AsyncAPI schema (spec/frame-inputs.ts): the rules left here are
// the ones JSON Schema cannot state (capabilities, subscriptions, rates; docs/contract.md).
import { CLOSE, HISTORY_DEFAULT, MAX_CONNECTION_SUBSCRIPTIONS, type ClientFrame } from '@tandem/contract'
import { refusal, SERVICE_ONLY_MESSAGE } from '../access.js'
import type { Connection } from './connection.js'
import { DEFAULTS } from './defaults.js'
import { RtError, type RequestId } from './frames.js'
import { acceptMember } from './member-data.js'
import type { RateBucket } from './rate-bucket.js'
import type { RequestHub as Hub } from './request-hub.js'
import type { Identity } from './token-auth.js'

type Type = Exclude<ClientFrame['type'], 'connect'>
type Handler<T extends Type> = (
  hub: Hub,
  conn: Connection,
  me: Identity,
  frame: Extract<ClientFrame, { type: T }>,
  id: RequestId,
) => void | Promise<void>

function need(me: Identity, ...capabilities: string[]): void {
  const refusals = capabilities.map((c) => refusal(me, c))
  if (refusals.includes(undefined)) return
  if (refusals.includes('service_only')) throw new RtError('forbidden', SERVICE_ONLY_MESSAGE)
  throw new RtError('forbidden', `The token lacks the "${capabilities[0] ?? ''}" capability.`)
}

/**
 * Takes a token from `bucket`, or refuses (`rate_limited`, temporary, with `retryAfterMs`); past
 * DEFAULTS.maxRefusals refusals in a row (publish and presence counted together) closes 4290 and
 * returns false. True when the request may go on.
 */
function spend(hub: Hub, conn: Connection, bucket: RateBucket, what: string): boolean {
  const waitMs = bucket.take()
  if (waitMs <= 0) {
    conn.refusals = 0
    return true
  }
  if (++conn.refusals > DEFAULTS.maxRefusals) {
    hub.close(conn, CLOSE.rate_limited, waitMs)
    return false
  }
  throw new RtError('rate_limited', `${what} too fast; retry in ${waitMs} ms.`, waitMs)
}

/** Runs one request; replies (or throws an RtError, which the hub turns into `error`). */
export function handleRequest(hub: Hub, conn: Connection, frame: ClientFrame, id: RequestId): void | Promise<void> {
  if (frame.type === 'connect') throw new RtError('bad_request', 'Already connected.')
  const handler = HANDLERS[frame.type] as Handler<Type>
  return handler(hub, conn, conn.identity as Identity, frame, id)
}

const HANDLERS: { [T in Type]: Handler<T> } = {
  ping: (_hub, conn, _me, _frame, id) => conn.push({ type: 'pong', id }),

  subscribe(hub, conn, me, frame, id) {
    // Capabilities are per channel: one forbidden channel does not refuse the others.
    const channels = frame.channels.map(({ channel: name, since: from }) => {
      try {
        need(me, `realtime:subscribe:${name}`)
        if (!conn.subscriptions.has(name) && conn.subscriptions.size >= MAX_CONNECTION_SUBSCRIPTIONS)
          throw new RtError(
            'limit_reached',
            `A connection subscribes to at most ${MAX_CONNECTION_SUBSCRIPTIONS} channels; unsubscribe from one first.`,
          )
        const channel = hub.ensureChannel(me.app, name)
        hub.subscribe(conn, channel)
        hub.stats.subscribes++
        const { messages, complete } = from ? channel.read(from, Infinity) : { messages: [], complete: true }
        return { channel: name, epoch: channel.epoch, offset: channel.offset, recovered: complete, missed: messages }
      } catch (err) {
        if (err instanceof RtError) return { channel: name, error: err.toBody() }
        throw err
      }
    })
    conn.push({ type: 'subscribed', id, channels })
  },

  unsubscribe(hub, conn, me, frame, id) {
    const list = frame.channels
    for (const name of list) {
      const channel = hub.channel(me.app, name)
      if (channel) hub.unsubscribe(conn, channel)
    }
    conn.push({ type: 'unsubscribed', id, channels: list })
  },

  publish(hub, conn, me, frame, id) {
    const { channel: name, event, idempotencyKey: key } = frame
    need(me, `realtime:publish:${name}`)
    if (!spend(hub, conn, conn.bucket, 'Publishing')) return
    hub.publish(me.app, name, event, frame.data, me.subject, key, (ack) =>
      conn.push({ type: 'ack', id, channel: name, ...ack }),
    )
  },

  'presence.enter': presenceSet,
  'presence.update': presenceSet,

  'presence.leave'(hub, conn, me, frame, id) {
    const name = frame.channel
    const channel = hub.channel(me.app, name)
    conn.push({ type: 'ok', id })
    if (channel && conn.presence.delete(name)) hub.presence.leave(conn.id, channel)
  },

  'presence.get'(hub, conn, me, frame, id) {
    const name = frame.channel
    need(me, `realtime:subscribe:${name}`, `realtime:presence:${name}`)
    const members = [...(hub.channel(me.app, name)?.members.values() ?? [])]
    conn.push({ type: 'presence.members', id, channel: name, members })
  },

  history(hub, conn, me, frame, id) {
    const { channel: name, since: from, limit = HISTORY_DEFAULT } = frame
    need(me, `realtime:subscribe:${name}`)
    const channel = hub.ensureChannel(me.app, name)
    const { messages, complete } = channel.read(from, limit)
    conn.push({ type: 'history', id, channel: name, epoch: channel.epoch, offset: channel.offset, messages, complete })
    hub.dropIfIdle(channel) // a read of a channel nobody uses leaves nothing behind
  },

  async auth(hub, conn, me, frame, id) {
    const next = await hub.gate.verify(frame.token)
    if (conn.state !== 'open') return
    if (typeof next === 'string')
      throw new RtError('token_invalid', `The token was refused (${next}); the current one stays in force.`)
    // The connection's identity (presence clientId) cannot change under it.
    if (next.app !== me.app || next.subject !== me.subject)
      throw new RtError('token_invalid', 'The token is for another app or subject.')
    conn.setIdentity(next)
    conn.push({ type: 'authed', id, expiresIn: conn.expiresIn() })
  },
}

function presenceSet(
  hub: Hub,
  conn: Connection,
  me: Identity,
  frame: Extract<ClientFrame, { type: 'presence.enter' | 'presence.update' }>,
  id: RequestId,
): void {
  const name = frame.channel
  need(me, `realtime:presence:${name}`)
  if (!conn.subscriptions.has(name))
    throw new RtError('not_subscribed', `Subscribe to "${name}" before entering its presence.`)
  if (!spend(hub, conn, conn.presenceBucket, 'Presence writes')) return
  const channel = hub.ensureChannel(me.app, name)
  const data = acceptMember(hub.policies, conn, me, channel, frame.data)
  conn.push({ type: 'ok', id })
  hub.presence.set(conn, channel, data, me.subject)
}
