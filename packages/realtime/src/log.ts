import type { Logger } from '@tandem/core'
import { redact } from './core.js'

export type Log = (message: string) => void

/**
 * Debug lines carry the connection id. Frames are logged by type only (never their token or
 * data), and anything token-shaped in a message is scrubbed all the same.
 */
export function createLog(debug: boolean | Logger | undefined, connectionId: () => string | undefined): Log {
  const sink = debug === true ? console : debug || undefined
  return (message) => sink?.debug?.(`[tandem:realtime ${connectionId() ?? '-'}] ${redact(message)}`)
}
