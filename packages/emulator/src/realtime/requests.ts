// The requests of an open connection (docs/protocol.md, "Requests"): validate, check capability, act, reply.
import { scopeAllows } from '@tandem/server'
import type { Connection } from './connection.js'
import { CLOSE, DEFAULTS } from './defaults.js'
import {
  channelName,
  eventName,
  historyLimit,
  idempotencyKey,
  RtError,
  since,
  token,
  type RequestId,
} from './frames.js'
import type { Hub } from './hub.js'
import type { Identity } from './token-auth.js'

export const KNOWN_TYPES = new Set([
  'connect',
  'subscribe',
  'unsubscribe',
  'publish',
  'presence.enter',
  'presence.update',
  'presence.leave',
  'presence.get',
  'history',
  'auth',
  'ping',
])

type Frame = Record<string, unknown>
type Handler = (hub: Hub, conn: Connection, me: Identity, frame: Frame, id: RequestId) => void | Promise<void>

const bad = (message: string) => new RtError('bad_request', message)

function need(me: Identity, ...capabilities: string[]): void {
  if (capabilities.some((c) => scopeAllows(me.scope, c))) return
  throw new RtError('forbidden', `The token lacks the "${capabilities[0] ?? ''}" capability.`)
}

/** Runs one request; replies (or throws an RtError, which the hub turns into `error`). */
export function handleRequest(hub: Hub, conn: Connection, frame: Frame, id: RequestId): void | Promise<void> {
  const handler = HANDLERS[frame.type as string]
  if (!handler || !Object.hasOwn(HANDLERS, frame.type as string)) {
    throw bad(
      frame.type === 'connect' ? 'Already connected.' : `Unknown request type "${String(frame.type).slice(0, 50)}".`,
    )
  }
  return handler(hub, conn, conn.identity as Identity, frame, id)
}

const HANDLERS: Record<string, Handler> = {
  ping: (_hub, conn, _me, _frame, id) => conn.push({ type: 'pong', id }),

  subscribe(hub, conn, me, frame, id) {
    const list = frame.channels
    if (!Array.isArray(list) || list.length === 0 || list.length > DEFAULTS.maxChannelsPerFrame) {
      throw bad(`"channels" must be an array of 1–${DEFAULTS.maxChannelsPerFrame} { channel, since? }.`)
    }
    // Shape first, so a malformed frame subscribes to nothing; names and capabilities are per channel.
    const entries = list.map((entry: unknown) => {
      const e = entry as { channel?: unknown; since?: unknown } | null
      if (typeof e !== 'object' || e === null || typeof e.channel !== 'string')
        throw bad('Every entry of "channels" must be { channel: string, since? }.')
      return { name: e.channel, since: since(e.since) }
    })
    const channels = entries.map(({ name, since: from }) => {
      try {
        channelName(name)
        need(me, `realtime:subscribe:${name}`)
        const channel = hub.ensureChannel(me.app, name)
        hub.subscribe(conn, channel)
        hub.stats.subscribes++
        const { messages, complete } = from ? channel.read(from, Infinity) : { messages: [], complete: true }
        return { channel: name, epoch: channel.epoch, offset: channel.offset, recovered: complete, missed: messages }
      } catch (err) {
        if (err instanceof RtError) return { channel: name.slice(0, 200), error: err.toBody() }
        throw err
      }
    })
    conn.push({ type: 'subscribed', id, channels })
  },

  unsubscribe(hub, conn, me, frame, id) {
    const list = frame.channels
    if (
      !Array.isArray(list) ||
      list.length > DEFAULTS.maxChannelsPerFrame ||
      !list.every((n) => typeof n === 'string')
    ) {
      throw bad('"channels" must be an array of channel names.')
    }
    for (const name of list) {
      const channel = hub.channel(me.app, name)
      if (channel) hub.unsubscribe(conn, channel)
    }
    conn.push({ type: 'unsubscribed', id, channels: list })
  },

  publish(hub, conn, me, frame, id) {
    const name = channelName(frame.channel)
    const event = eventName(frame.event)
    const key = idempotencyKey(frame.idempotencyKey)
    need(me, `realtime:publish:${name}`)
    const waitMs = conn.bucket.take()
    if (waitMs > 0) {
      if (++conn.refusals > DEFAULTS.maxRefusals) return hub.close(conn, CLOSE.rate_limited, waitMs)
      throw new RtError('rate_limited', `Publishing too fast; retry in ${waitMs} ms.`, waitMs)
    }
    conn.refusals = 0
    hub.publish(me.app, name, event, frame.data, me.subject, key, (ack) =>
      conn.push({ type: 'ack', id, channel: name, ...ack }),
    )
  },

  'presence.enter': presenceSet,
  'presence.update': presenceSet,

  'presence.leave'(hub, conn, me, frame, id) {
    const name = channelName(frame.channel)
    const channel = hub.channel(me.app, name)
    conn.push({ type: 'ok', id })
    if (channel && conn.presence.delete(name)) hub.presence.leave(conn.id, channel)
  },

  'presence.get'(hub, conn, me, frame, id) {
    const name = channelName(frame.channel)
    need(me, `realtime:subscribe:${name}`, `realtime:presence:${name}`)
    const members = [...(hub.channel(me.app, name)?.members.values() ?? [])]
    conn.push({ type: 'presence.members', id, channel: name, members })
  },

  history(hub, conn, me, frame, id) {
    const name = channelName(frame.channel)
    const from = since(frame.since)
    const limit = historyLimit(frame.limit)
    need(me, `realtime:subscribe:${name}`)
    const channel = hub.ensureChannel(me.app, name)
    const { messages, complete } = channel.read(from, limit)
    conn.push({ type: 'history', id, channel: name, epoch: channel.epoch, offset: channel.offset, messages, complete })
  },

  async auth(hub, conn, me, frame, id) {
    const next = await hub.gate.verify(token(frame.token))
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

function presenceSet(hub: Hub, conn: Connection, me: Identity, frame: Frame, id: RequestId): void {
  const name = channelName(frame.channel)
  need(me, `realtime:presence:${name}`)
  if (!conn.subscriptions.has(name))
    throw new RtError('not_subscribed', `Subscribe to "${name}" before entering its presence.`)
  conn.push({ type: 'ok', id })
  hub.presence.set(conn, hub.ensureChannel(me.app, name), frame.data, me.subject)
}
