import { DEFAULTS as CORE } from '@tandem/core'

/** Every default of @tandem/realtime, in one place (docs/protocol.md gives the numbers). */
export const DEFAULTS = {
  /** Appended to the realtime service base URL. */
  path: '/v1/ws',
  /** Full jitter; the attempt count resets once a connection has stayed up for `stableMs`. */
  backoff: { baseMs: 500, capMs: 20_000, stableMs: 10_000 },
  /** WebSocket open, then open → `connected`: a link that cannot finish either is dead. */
  openTimeoutMs: 10_000,
  handshakeTimeoutMs: 10_000,
  /** history, presence, subscribe replies. */
  requestTimeoutMs: 15_000,
  /** A publish may wait in the offline queue, so its deadline is longer (counted from the call). */
  publishTimeoutMs: 60_000,
  /** The service takes at most this many channels in one subscribe frame. */
  maxChannelsPerFrame: 1000,
  /** Requests waiting for a connection; the oldest is dropped beyond this. */
  maxQueued: 100,
  /** The server's limit until `connected` announces it. */
  maxMessageBytes: 65_536,
  /** Server frames can legitimately exceed maxMessageBytes (subscribe replies carry `missed`). */
  maxInboundChars: 16 * 1024 * 1024,
  /** Heartbeat grace is min(this, heartbeatMs). */
  maxGraceMs: 10_000,
  /** Same rule as core's token provider: refresh ahead by max(30 s, 10 %), never more than half. */
  refreshMarginMs: CORE.token.refreshMarginMs,
  refreshMarginRatio: CORE.token.refreshMarginRatio,
  /** After a failed in-band refresh; the server's 4100 close is the backstop. */
  refreshRetryMs: 5_000,
  /**
   * A released lease (`leaseChannel`, live bindings) is let go this much later, and a new lease
   * meanwhile keeps it: React StrictMode's mount–unmount–mount (and a component that moves)
   * neither resubscribes nor drops a message.
   */
  leaseReleaseMs: 100,
} as const
