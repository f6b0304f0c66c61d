// What the devtools keep of an error or a frame: text only, through core's `redact`, so no
// token, bearer header or key-shaped string reaches the recorder, the DOM or a copy of either.
import { redact } from '@tandem/core/internal'
import { DEFAULTS } from './defaults.js'
import type { ErrorInfo } from './types.js'

/** Name, code and message, redacted; never the error itself (its cause or options may hold a request). */
export function errorInfo(error: { name?: string; message?: string; code?: unknown }): ErrorInfo {
  return {
    name: redact(String(error.name ?? 'Error')),
    code: typeof error.code === 'string' ? redact(error.code) : undefined,
    message: redact(String(error.message ?? '')),
  }
}

/**
 * The frame's JSON (the realtime has already replaced its token fields), redacted again and cut
 * at `max` characters. Redaction reads a margin past the cut, so a token that straddles the cut
 * is scrubbed whole rather than left half visible.
 */
export function frameText(frame: unknown, max: number): { text: string; truncated: boolean } {
  let json: string
  try {
    json = JSON.stringify(frame) ?? ''
  } catch {
    json = '"[unserializable]"'
  }
  const truncated = json.length > max
  const read = truncated ? json.slice(0, max + DEFAULTS.redactMarginChars) : json
  const clean = redact(read)
  return { text: truncated ? clean.slice(0, max) : clean, truncated }
}
