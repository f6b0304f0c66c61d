import type { LogLevel, Logger } from './types.js'

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }

const BEARER = /\b(Bearer)\s+[^\s,;"']+/gi
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g
const SECRET_PARAM = /([?&](?:key|token|access_token|secret)=)[^&\s"']+/gi

/** Scrubs anything token- or key-shaped out of text that may reach a log or an error message. */
export function redact(text: string): string {
  return text.replace(BEARER, '$1 [redacted]').replace(JWT, '[redacted]').replace(SECRET_PARAM, '$1[redacted]')
}

export type LogFn = ((level: Exclude<LogLevel, 'silent'>, message: string, data?: Record<string, unknown>) => void) & {
  /** Whether `level` is written at all: skip building a line nobody reads (the request path runs per call). */
  enabled: (level: Exclude<LogLevel, 'silent'>) => boolean
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
