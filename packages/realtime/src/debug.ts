// @tandem/realtime/debug: createRealtime's debug lines and its frames, an entry of its own so an app
// that does not ask for them ships no logger, no frame parsing and no redaction.
// `createRealtime(source, { debug: debugLog() })`, `watchFrames(rt, listener)`.
import type { Logger } from '@tandem/core'
import { redact } from './core.js'
import { DEBUG_LOG, type DebugLog } from './debug/log.js'

export type { DebugLog } from './debug/log.js'
export { watchFrames } from './debug/watch-frames.js'
export type { FrameEvent } from './types.js'

/**
 * Debug lines (states, frames by type, errors) with the connection id, to `sink.debug` (the
 * console by default). Frames are logged by type only (never their token or data), and anything
 * token-shaped in a line is scrubbed all the same.
 *
 * @example
 * ```ts
 * const rt = createRealtime({ client }, { debug: debugLog() }) // or debugLog(myLogger)
 * ```
 */
export function debugLog(sink: Logger = console): DebugLog {
  const make = (connectionId: () => string | undefined) => (message: string) =>
    sink.debug?.(`[tandem:realtime ${connectionId() ?? '-'}] ${redact(message)}`)
  return Object.assign(make, { [DEBUG_LOG]: true as const })
}
