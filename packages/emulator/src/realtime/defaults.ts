import { CLOSE } from '@tandem/contract'
// Every tunable default of the realtime hub, and the protocol's fixed numbers (docs/protocol.md).

export const DEFAULTS = {
  path: '/realtime/v1/ws',
  heartbeatMs: 15_000,
  historySize: 1000,
  historyTtlMs: 120_000,
  maxMessageBytes: 65_536,
  publishRate: { limit: 100, intervalMs: 1000 },
  presenceGraceMs: 3000,
  handshakeTimeoutMs: 10_000,
  /** The protocol promises dedupe for at least this long, whatever the history TTL. */
  minDedupeMs: 120_000,
  /** Beyond this many keys per channel the oldest are forgotten (memory bound). */
  maxDedupeKeys: 10_000,
  /** Refusals in a row before a publisher is closed with 4290. */
  maxRefusals: 20,
  maxChannelsPerFrame: 1000,
  historyLimit: 100,
  maxHistoryLimit: 1000,
  maxEventLength: 200,
  waitForTimeoutMs: 5000,
  /** A socket silent (no pong, no frame) for max(3 heartbeats, this) is dead; generous so a busy test never trips it. */
  minDeadAfterMs: 30_000,
  /**
   * `ws` closes with 1009 (not our 4009) above its own maxPayload, so we let it buffer more
   * than maxMessageBytes and check the size ourselves; only a frame beyond this factor gets 1009.
   */
  payloadHeadroom: 16,
  minPayloadCap: 1024 * 1024,
} as const

export { CHANNEL_NAME, CLOSE, type CloseName } from '@tandem/contract'

export const CLOSE_NAMES: Partial<Record<number, string>> = Object.fromEntries(
  Object.entries(CLOSE).map(([name, code]) => [code, name]),
)
