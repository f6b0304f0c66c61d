// Every tunable default of the realtime hub. The protocol's fixed numbers (limits, close codes)
// are the contract's (`@tandem/contract`), imported where they are used.
import { LIMITS } from '@tandem/contract'

export const DEFAULTS = {
  path: '/realtime/v1/ws',
  heartbeatMs: 15_000,
  historySize: 1000,
  historyTtlMs: 120_000,
  maxMessageBytes: LIMITS.maxMessageBytes,
  publishRate: { limit: 100, intervalMs: 1000 },
  presenceGraceMs: 3000,
  handshakeTimeoutMs: 10_000,
  /** The protocol promises dedupe for at least this long, whatever the history TTL. */
  minDedupeMs: 120_000,
  /** Beyond this many keys per channel the oldest are forgotten (memory bound). */
  maxDedupeKeys: 10_000,
  /** Refusals in a row before a publisher is closed with 4290. */
  maxRefusals: 20,
  waitForTimeoutMs: 5000,
  /** A socket silent (no pong, no frame) for max(3 heartbeats, this) is dead; generous so a busy test never trips it. */
  minDeadAfterMs: 30_000,
} as const
