// The debug log's types. The lines themselves (and the redaction they go through) come from
// `debugLog()` in @tandem/realtime/debug (debug.ts), only in an app that asks for them.

export type Log = (message: string) => void

/**
 * What createRealtime's `debug` option takes: `debugLog()` from '@tandem/realtime/debug'. Given the
 * connection id's getter, it makes the client's log.
 */
export type DebugLog = ((connectionId: () => string | undefined) => Log) & { readonly [DEBUG_LOG]: true }

/** Marks what `debugLog()` made: `debug: debugLog` (not called) is refused, not silently logged nowhere. */
export const DEBUG_LOG = Symbol.for('tandem.debugLog')

/** No `debug` option: nothing is built, nothing logged. */
export const silent: Log = () => {}
