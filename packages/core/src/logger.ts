import { redact } from './redact.js'
import type { LogLevel, Logger } from './types.js'

// Reached only from a client given a logger: both clients take `logTo(console)`, so an app that
// logs nothing ships neither this nor the level table (redact stays, in redact.ts).
const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }

export type LogFn = ((level: Exclude<LogLevel, 'silent'>, message: string, data?: Record<string, unknown>) => void) & {
  /** Whether `level` is written at all: skip building a line nobody reads (the request path runs per call). */
  enabled: (level: Exclude<LogLevel, 'silent'>) => boolean
}

/** A logger made from a console-shaped one, at the client's `logLevel`: `logger: logTo(console)`. */
export type LogTo = (level: LogLevel) => LogFn

/**
 * Where a client's log lines go: `createBaseClient({ logger: logTo(console) })`, and the same on
 * `createClient` of `@tandem/core` (which still takes `logger: console` until the next minor, deprecated).
 */
export function logTo(logger: Logger): LogTo {
  return (level) => createLogger(logger, level)
}

export function createLogger(logger: Logger | false | undefined, level: LogLevel): LogFn {
  const threshold = logger ? LEVELS[level] : Infinity
  const enabled = (lvl: Exclude<LogLevel, 'silent'>) => LEVELS[lvl] >= threshold
  const log = (lvl: Exclude<LogLevel, 'silent'>, message: string, data?: Record<string, unknown>) => {
    if (!logger || !enabled(lvl)) return
    const safe = data && redactValues(data)
    logger[lvl]?.(`[tandem] ${redact(message)}`, safe)
  }
  return Object.assign(log, { enabled })
}

function redactValues(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? redact(v) : v]))
}
