// The debug log's types. The lines themselves (and the redaction they go through) come from
// `debugLog()` in @tandem/realtime/debug (debug.ts), only in an app that asks for them.

export type Log = (message: string) => void

/**
 * What createRealtime's `debug` option takes: `debugLog()` from '@tandem/realtime/debug'. Given the
 * connection id's getter, it makes the client's log.
 */
export type DebugLog = (connectionId: () => string | undefined) => Log

/** No `debug` option: nothing is built, nothing logged. */
export const silent: Log = () => {}
