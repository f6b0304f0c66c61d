// Reading client frames and shaping errors: every malformed input becomes an RtError, never a crash.
// What a frame may hold is the AsyncAPI document's to say (checked in spec/frame-inputs.ts).
import { randomBytes } from 'node:crypto'
import type { ClientFrame, RealtimeErrorCode as ErrorCode } from '@tandem/contract'
import { checkFrame, frameChecks, type RequestId } from '../spec/frame-inputs.js'

const TEMPORARY = new Set<ErrorCode>(['rate_limited', 'internal'])

export interface ErrorBody {
  code: ErrorCode
  message: string
  temporary: boolean
  retryAfterMs?: number
  requestId: string
}

/** A refused request: becomes `{ type: 'error', id, error }` (or a per-channel `error`). */
export class RtError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message)
  }

  toBody(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      temporary: TEMPORARY.has(this.code),
      ...(this.retryAfterMs !== undefined ? { retryAfterMs: this.retryAfterMs } : {}),
      requestId: newId('rt'),
    }
  }
}

export const newId = (prefix: string, bytes = 8): string => `${prefix}_${randomBytes(bytes).toString('hex')}`

export type { RequestId }

/** One text frame, read: the contract's frame, or the error to answer (the id when it was usable). */
export type Parsed = ({ frame: ClientFrame; id: RequestId } | { error: RtError; id: RequestId | undefined }) & {
  /** For stats: the frame's type, `unknown` (a type the protocol lacks) or `invalid` (no type at all). */
  kind: string
  /** The JSON object received, when it was one (for `realtime.on('in')`). */
  value: Record<string, unknown> | undefined
}

/** Parses and checks a frame against the AsyncAPI document (spec/frame-inputs.ts). */
export function parseFrame(text: string): Parsed {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return {
      error: new RtError('bad_request', 'The frame is not valid JSON.'),
      id: undefined,
      kind: 'invalid',
      value: undefined,
    }
  }
  const object =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  const type = object?.type
  const kind = typeof type === 'string' ? (frameChecks().byType.has(type) ? type : 'unknown') : 'invalid'
  const checked = checkFrame(value)
  if ('frame' in checked) return { ...checked, kind, value: object }
  return { error: new RtError(checked.error.code, checked.error.message), id: checked.id, kind, value: object }
}

export interface Since {
  epoch: string
  offset: number
}

/** The close reason: a short JSON object (≤ 123 bytes, the WebSocket limit). */
export function closeReason(name: string, retryAfterMs?: number): string {
  return JSON.stringify({ code: name, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) })
}
