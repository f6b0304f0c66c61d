// RealtimeOptions → the numbers the hub runs on, checked once (a bad option fails at start, not later).
import { DEFAULTS } from './defaults.js'
import type { RealtimeOptions } from './types.js'

interface Rate {
  limit: number
  intervalMs: number
  burst: number
}

/** A bucket option (its burst 2 × limit when not given), or the default bucket. */
const rateOf = (given: RealtimeOptions['publishRate'], fallback: Rate): Rate =>
  given ? { limit: given.limit, intervalMs: given.intervalMs, burst: given.burst ?? given.limit * 2 } : { ...fallback }

export interface ResolvedOptions {
  heartbeatMs: number
  historySize: number
  historyTtlMs: number
  maxMessageBytes: number
  publishRate: Rate
  presenceRate: Rate
  presenceGraceMs: number
  handshakeTimeoutMs: number
}

export function resolveOptions(o: RealtimeOptions = {}): ResolvedOptions {
  const resolved: ResolvedOptions = {
    heartbeatMs: o.heartbeatMs ?? DEFAULTS.heartbeatMs,
    historySize: o.historySize ?? DEFAULTS.historySize,
    historyTtlMs: o.historyTtlMs ?? DEFAULTS.historyTtlMs,
    maxMessageBytes: o.maxMessageBytes ?? DEFAULTS.maxMessageBytes,
    publishRate: rateOf(o.publishRate, DEFAULTS.publishRate),
    presenceRate: rateOf(o.presenceRate, DEFAULTS.presenceRate),
    presenceGraceMs: o.presenceGraceMs ?? DEFAULTS.presenceGraceMs,
    handshakeTimeoutMs: o.handshakeTimeoutMs ?? DEFAULTS.handshakeTimeoutMs,
  }
  const positive = (name: string, v: number, integer = false) => {
    // Timers beyond 2^31 - 1 ms fire at once in Node; refuse them rather than misbehave.
    if (!(Number.isFinite(v) && v > 0 && v < 2 ** 31) || (integer && !Number.isInteger(v))) {
      throw new RangeError(`realtime.${name} must be a positive ${integer ? 'integer' : 'number'}`)
    }
  }
  positive('heartbeatMs', resolved.heartbeatMs)
  positive('historySize', resolved.historySize, true)
  positive('historyTtlMs', resolved.historyTtlMs)
  positive('maxMessageBytes', resolved.maxMessageBytes, true)
  positive('publishRate.limit', resolved.publishRate.limit)
  positive('publishRate.intervalMs', resolved.publishRate.intervalMs)
  positive('publishRate.burst', resolved.publishRate.burst)
  positive('presenceRate.limit', resolved.presenceRate.limit)
  positive('presenceRate.intervalMs', resolved.presenceRate.intervalMs)
  positive('presenceRate.burst', resolved.presenceRate.burst)
  positive('presenceGraceMs', resolved.presenceGraceMs)
  positive('handshakeTimeoutMs', resolved.handshakeTimeoutMs)
  if (resolved.maxMessageBytes < 1024) throw new RangeError('realtime.maxMessageBytes must be at least 1024')
  return resolved
}
