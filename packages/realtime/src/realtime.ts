import { CHANNEL_NAME_RULE, isChannelName } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { createChannel, type ChannelImpl, type ChannelClient } from './channels/channel.js'
import { createLink } from './connection/link.js'
import { channelInfo } from './channels/channel-info.js'
import { createHeldBudget } from './channels/held.js'
import { isSince } from './connection/protocol.js'
import { toWsUrl } from './connection/url.js'
import { ValidationError, createEmitter, createTokenProvider } from './core.js'
import { HELD, PUBLISH_TIMEOUT_MS } from './defaults.js'
import type { Saved } from './messages/positions.js'
import { PARTS, type Parts } from './parts.js'
import type { RealtimeOptions, Realtime, RealtimeSource } from './realtime-options.js'
import type { Position, RealtimeEvents } from './types.js'

export type {
  Realtime,
  RealtimeOptions,
  RealtimeSource,
  TabsContext,
  TabsFactory,
  TabsLink,
} from './realtime-options.js'

// createRealtime wires its parts: the channels (one object per name), the link that carries them
// (connection/link.ts: the socket, its requests, the handshake, the subscriptions), the saved
// positions, and what the optional entries keep for this client (parts.ts).

/**
 * What a `positions` factory left, by channel: a Map, or the plain object a factory written before
 * `Saved.channels` became one may still hand back. Only well-formed positions count.
 */
const toMap = (channels: unknown): Map<string, Position> => {
  const entries: [unknown, unknown][] =
    channels instanceof Map ? [...(channels as Map<unknown, unknown>)] : Object.entries(channels ?? {})
  return new Map(entries.filter((e): e is [string, Position] => typeof e[0] === 'string' && isSince(e[1])))
}

/**
 * @example
 * ```ts
 * const rt = createRealtime({ client }) // shares client.auth: one token provider for REST and realtime
 * const off = rt.channel('chat:lobby').subscribe('message', (m) => console.log(m.data))
 * await rt.channel('chat:lobby').publish('message', { text: 'hi' })
 * ```
 */
export function createRealtime(source: RealtimeSource, options: RealtimeOptions = {}): Realtime {
  const fromClient = 'client' in source
  const url = toWsUrl(fromClient ? source.client.baseUrls.realtime : source.url)
  // A shared connection swaps the socket (a tab socket to the leader's hub) and the tokens (the leader's).
  const own = { auth: fromClient ? source.client.auth : createTokenProvider(source.auth), WebSocket: options.WebSocket }
  const events = createEmitter<RealtimeEvents>()
  // A Map, as every table keyed by channel names: `__proto__` and `constructor` are channel names too.
  const channels = new Map<string, ChannelImpl>()
  const link = createLink(url, options.tabs?.({ url, ...own }) ?? own, options, events, channels)
  const { conn, session, request, error } = link
  // Positions a reloaded page left: a channel made later resumes from its own; unused ones are kept.
  const positions = options.positions?.(url, (): Saved => {
    const now = new Map(seeds)
    for (const ch of channels.values()) if (ch.position) now.set(ch.name, ch.position)
    return { connectionId: session.connectionId, channels: now }
  })
  const seeds = toMap(positions?.saved.channels)
  session.connectionId = positions?.saved.connectionId

  // With a durable outbox, each publish is stored first and sent through `request` (again after a
  // reload); created now, so what an earlier page stored goes as soon as this client exists.
  const stored = options.outbox?.realtime((p) => request({ type: 'publish', ...p }, { timeoutMs: PUBLISH_TIMEOUT_MS }))
  /** What each channel is given: one held budget for all its channels, the client's backoff for a gap's history read. */
  const client: ChannelClient = {
    request,
    publish: stored ?? request,
    changed: link.changed,
    error,
    held: createHeldBudget(options.maxHeld ?? HELD.max, options.maxHeldBytes ?? HELD.maxBytes),
    retryDelay: link.retryDelay,
  }

  const parts: Parts = { tap: link.tap }
  const rt: Realtime & { readonly [PARTS]: Parts } = {
    get state() {
      return conn.state
    },
    get connectionId() {
      return session.connectionId
    },
    get lastError() {
      return conn.machine.context.lastError
    },
    channel(name, since) {
      if (!isChannelName(name))
        throw new ValidationError('channel', DEV && process.env.NODE_ENV !== 'production' && CHANNEL_NAME_RULE)
      let ch = channels.get(name)
      if (!ch) {
        channels.set(name, (ch = createChannel(name, client, isSince(since) ? since : seeds.get(name))))
        seeds.delete(name)
      }
      return ch
    },
    channels: () => [...channels.values()].map(channelInfo),
    connect() {
      positions?.attach()
      conn.connect()
    },
    close() {
      positions?.detach()
      link.close()
    },
    on: events.on,
    [PARTS]: parts,
  }
  return rt
}
