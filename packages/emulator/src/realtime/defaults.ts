// Every tunable default of the realtime hub. The protocol's fixed numbers (limits, close codes)
// are the contract's (`@tandem/contract`), imported where they are used.
import { LIMITS, PRESENCE_RATE, PUBLISH_RATE } from '@tandem/contract'

export const DEFAULTS = {
  path: '/realtime/v1/ws',
  heartbeatMs: 15_000,
  historySize: 1000,
  historyTtlMs: 120_000,
  maxMessageBytes: LIMITS.maxMessageBytes,
  publishRate: PUBLISH_RATE,
  /** presence.enter/update per connection: a bucket of its own (docs/protocol.md, "Limits"). */
  presenceRate: PRESENCE_RATE,
  presenceGraceMs: 3000,
  handshakeTimeoutMs: 10_000,
  /** The protocol promises dedupe for at least this long, whatever the history TTL. */
  minDedupeMs: 120_000,
  /** Beyond this many keys per channel the oldest are forgotten (memory bound). */
  maxDedupeKeys: 10_000,
  /**
   * How often idle channels are looked for: a channel nobody is on whose newest message is older
   * than its dedupe window is dropped (one with no message at all goes when its last peer does).
   */
  sweepMs: 30_000,
  /** Positions of forgotten channels kept (a few bytes each), so one used again goes on in its epoch. */
  maxTombstones: 10_000,
  /** Rate refusals in a row (publish or presence) before the connection is closed with 4290. */
  maxRefusals: 20,
  waitForTimeoutMs: 5000,
  /** A socket silent (no pong, no frame) for max(3 heartbeats, this) is dead; generous so a busy test never trips it. */
  minDeadAfterMs: 30_000,
} as const
