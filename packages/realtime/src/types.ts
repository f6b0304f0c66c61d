import type { RealtimeError, Unsubscribe } from '@tandem/core'

export type ConnectionState =
  'idle' | 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'closed' | 'failed'

export interface StateChange {
  previous: ConnectionState
  current: ConnectionState
  /** Why: `connect`, `close`, a close-code name (`token_expired`), `heartbeat_timeout`, `offline`, … */
  reason?: string
  /** When the next attempt starts, for `reconnecting`. */
  retryInMs?: number
  /** The error that caused this change, if one did. */
  error?: RealtimeError
  /**
   * Why the client is not connected: the last failed attempt's error (a refused socket, a token
   * endpoint down, `no_websocket`, …), kept until the next `connected`.
   */
  lastError?: RealtimeError
}

/** `subscribing` also covers "waiting to resume after a reconnect". */
export type ChannelState = 'unsubscribed' | 'subscribing' | 'subscribed' | 'failed'

/** A point in a channel's stream. */
export interface Position {
  epoch: string
  offset: number
}

export interface Message<T = unknown> extends Position {
  channel: string
  event: string
  data: T
  messageId: string
  clientId?: string
  ts: number
}

export interface Member<T = unknown> {
  clientId: string
  connectionId: string
  data: T
}

export interface PresenceEvent<T = unknown> {
  channel: string
  action: 'enter' | 'update' | 'leave'
  member: Member<T>
  ts: number
}

/**
 * Messages were lost between `since` and `resumedAt`: delivery goes on with the messages
 * after `resumedAt`. Refetch whatever state you derive from the channel.
 */
export interface Discontinuity {
  channel: string
  /** `history_unavailable`: history could not be read to fill the gap (it kept failing, or the channel was let go). */
  reason: 'epoch_changed' | 'history_expired' | 'history_unavailable'
  since: Position
  resumedAt: Position
}

export interface PublishAck extends Position {
  messageId: string
  /** The service had stored this publish already (a retry after a lost ack). */
  duplicate: boolean
}

/** A request's deadlines (publish, history, presence). */
export interface RequestOptions {
  /**
   * How long to wait for the reply once the request is sent (a resend after a reconnect starts it
   * again); then it fails with `timeout`.
   * @default 10_000 for a publish, the client's `requestTimeoutMs` (15_000) otherwise
   */
  timeoutMs?: number
  /**
   * How long it may wait for a connection, from the call; then it fails with `queue_timeout`,
   * never sent.
   * @default the client's `queueTimeoutMs` (300_000)
   */
  queueTimeoutMs?: number
}

/** A publish's deadlines, and its idempotency key. */
export interface PublishOptions extends RequestOptions {
  /**
   * The service stores a publish once per key: a publish sent again with the same key (a retry of
   * yours, after a reload) is acknowledged with `duplicate: true`, not delivered twice. 1 to 255
   * printable ASCII characters, no space.
   * @default a random key per publish
   */
  idempotencyKey?: string
}

export interface HistoryOptions extends RequestOptions {
  since?: Position
  limit?: number
}

export interface HistoryPage extends Position {
  messages: Message[]
  /** false when history did not reach back to `since`, or the epoch changed. */
  complete: boolean
}

/**
 * A frame this client wrote to its link or read from it (its own socket, or, in a tab that shares
 * the connection, its link to the leader's hub), as `watchFrames` (@tandem/realtime/debug) tells
 * it: nothing is built for it otherwise.
 */
export interface FrameEvent {
  direction: 'in' | 'out'
  /** The frame's `type` (`publish`, `message`, `presence.event`, `auth`, …); `unparsed` for one that failed to parse. */
  type: string
  /** Its channel, when it names one. */
  channel?: string
  /** Its length on the wire, in characters. */
  size: number
  /**
   * The frame, parsed (a copy of its own: the listener may keep it), with every token-bearing field
   * (`token`, or any field named like a credential) replaced by '[redacted]' and token-shaped
   * strings scrubbed by `redact`; empty for an unparsed frame.
   */
  frame: { [field: string]: unknown }
  /** ms since epoch. */
  at: number
}

export interface RealtimeEvents {
  state: (change: StateChange) => void
  error: (error: RealtimeError) => void
}

/** A channel as `rt.channels()` shows it: read when asked, nothing kept for it. */
export interface ChannelInfo {
  name: string
  state: ChannelState
  /** The last delivered position (offset and epoch), as `channel.position`. */
  position: Position | undefined
  /** Message listeners now (`channel.subscribe` calls not yet undone). */
  subscribers: number
  /**
   * The members this client knows (its presence table) when it tracks presence on the channel (a
   * `presenceStore`, `usePresence`, resource presence), else undefined.
   */
  presence: Member[] | undefined
}

export interface ChannelEvents {
  state: (change: { previous: ChannelState; current: ChannelState; error?: RealtimeError }) => void
  discontinuity: (event: Discontinuity) => void
  error: (error: RealtimeError) => void
}

export type Listener<T = unknown> = (message: Message<T>) => void

export interface Presence {
  /** Enters (or re-enters after a reconnect that did not keep it); subscribes the channel if needed. */
  enter: (data?: unknown) => Promise<void>
  update: (data?: unknown) => Promise<void>
  leave: () => Promise<void>
  get: (options?: RequestOptions) => Promise<Member[]>
  subscribe: (listener: (event: PresenceEvent) => void) => Unsubscribe
}

export interface Channel {
  readonly name: string
  readonly state: ChannelState
  /** The last delivered position (what a resume asks for). */
  readonly position: Position | undefined
  subscribe: {
    <T = unknown>(listener: Listener<T>): Unsubscribe
    <T = unknown>(event: string, listener: Listener<T>): Unsubscribe
  }
  on: <E extends keyof ChannelEvents>(event: E, callback: ChannelEvents[E]) => Unsubscribe
  /**
   * With the client's `outbox`, the publish is stored before it is sent and the promise settles with
   * its outcome, however long that takes: `timeoutMs` and `queueTimeoutMs` do not apply (each attempt
   * has the client's deadlines), and a publish over the connection's size limit is refused when it
   * would be sent.
   */
  publish: (event: string, data?: unknown, options?: PublishOptions) => Promise<PublishAck>
}

/** `connectionStore(rt)`'s snapshot: the connection's state, and when the next attempt starts. */
export interface ConnectionSnapshot {
  state: ConnectionState
  /** When the next attempt starts, while `reconnecting`: in ms from the state change… */
  retryInMs?: number
  /** …and as a time (epoch ms), so a countdown stays right however late it renders. */
  retryAt?: number
  error?: RealtimeError
}
