import type { AuthOptions, OutboxLink, TokenProvider, Unsubscribe } from '@tandem/core'
import type { BackoffOptions } from './core.js'
import type { DebugLog } from './debug/log.js'
import type { RealtimeError } from './core.js'
import type { PositionsFactory } from './messages/positions.js'
import type { Channel, ChannelInfo, ConnectionState, Position, RealtimeEvents } from './types.js'

export interface RealtimeOptions {
  /**
   * A WebSocket constructor. Node 20 has none: pass `ws`'s (`import WebSocket from 'ws'`).
   * @default `globalThis.WebSocket`
   */
  WebSocket?: unknown
  /**
   * Connect as soon as a channel is used.
   * @default true
   */
  autoConnect?: boolean
  /**
   * Requests (publishes first of all) waiting for a connection; the oldest is dropped past this.
   * @default 100
   */
  maxQueued?: number
  /**
   * Live messages held (across channels) while a subscribe or a gap's history read is answered;
   * past this, or `maxHeldBytes` (frame characters), they are dropped and read from history after.
   * @default 10_000 and 8 MiB
   */
  maxHeld?: number
  maxHeldBytes?: number
  /**
   * Reconnect delays: full jitter between 0 and `min(capMs, baseMs · 2^attempt)`.
   * @default { baseMs: 500, capMs: 20_000, stableMs: 10_000 }
   */
  backoff?: Partial<BackoffOptions>
  /**
   * How long history and presence requests wait for their reply once sent, in ms.
   * @default 15_000
   */
  requestTimeoutMs?: number
  /**
   * How long a request (a publish, history, presence) may wait for the connection, from the call,
   * before it fails with `queue_timeout` unsent. Generous: a publish made offline goes out when the
   * connection is back.
   * @default 300_000 (5 min)
   */
  queueTimeoutMs?: number
  /**
   * Debug lines (frames by type, states) with the connection id; tokens are redacted:
   * `debugLog()` (the console) or `debugLog(logger)` from '@tandem/realtime/debug'. Without it,
   * no logger is built or shipped.
   */
  debug?: DebugLog
  /**
   * Resume after a reload: `sessionPositions()` from '@tandem/realtime/positions'. When the page
   * goes away, each channel's last delivered position and the connection id are kept; the next page
   * of the tab resumes from them (what was published meanwhile arrives, once; presence is kept
   * within the service's grace).
   * @default undefined (each page starts fresh)
   */
  positions?: PositionsFactory
  /**
   * One connection for all the tabs of this app and user: `shareAcrossTabs({ key })` from
   * '@tandem/realtime/tabs'. The tabs elect a leader, whose socket serves them all; when it goes,
   * another takes over and every tab resumes without loss or duplicates.
   * @default undefined (a socket per tab)
   */
  tabs?: TabsFactory
  /**
   * Publishes that survive a reload: `durableOutbox({ key })` from '@tandem/core/persist' (the one
   * given to `createClient({ outbox })`, so REST writes and publishes share it). Each publish is
   * stored with its idempotency key before it is sent, sent again after a failure for now or a
   * reload until the service applies or refuses it, once, in order per channel; those an earlier
   * page stored are sent as soon as this client exists.
   * @default undefined (publishes wait in this page's memory: `maxQueued`, `queueTimeoutMs`)
   */
  outbox?: OutboxLink
  /**
   * Randomness for the backoff (tests).
   * @default `Math.random`
   */
  random?: () => number
}

/** What a `tabs` option is given: where the client connects, its token provider and WebSocket. */
export interface TabsContext {
  url: string
  auth: TokenProvider
  WebSocket: unknown
}

/** What the client runs on instead, when its tab shares a connection. */
export interface TabsLink {
  WebSocket: unknown
  auth: TokenProvider
}

export type TabsFactory = (context: TabsContext) => TabsLink | undefined

export type RealtimeSource =
  | { client: { auth: TokenProvider; baseUrls: { realtime: string } } }
  | { auth: AuthOptions | TokenProvider; url: string }

export interface Realtime {
  readonly state: ConnectionState
  readonly connectionId: string | undefined
  /** Why the client is not connected (the last failure), until the next `connected`. */
  readonly lastError: RealtimeError | undefined
  /**
   * The channel of that name (one object per name); it subscribes while it has listeners. `since`:
   * where it starts when made now (it resumes from there: history brings what came after), as
   * the `positions` option does after a reload; ignored for a channel already made. Until its
   * first message, `channel.position` is that very object.
   */
  channel: (name: string, since?: Position) => Channel
  /**
   * The channels this client holds now (every `channel(name)` made), each read when called: a tool
   * polls it. A channel's state changes reach `channel.on('state')`; its counts reach no listener.
   */
  channels: () => ChannelInfo[]
  connect: () => void
  /** Closes the socket and rejects waiting requests; `connect()` opens it again. */
  close: () => void
  on: <E extends keyof RealtimeEvents>(event: E, callback: RealtimeEvents[E]) => Unsubscribe
}
