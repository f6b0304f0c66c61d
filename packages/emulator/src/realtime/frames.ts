// Reading client frames and shaping errors: every malformed input becomes an RtError, never a crash.
import { randomBytes } from 'node:crypto'
import { CHANNEL_NAME_RULE } from '@tandem/contract'
import { CHANNEL_NAME, DEFAULTS } from './defaults.js'

export type ErrorCode =
  | 'bad_request'
  | 'invalid_channel'
  | 'forbidden'
  | 'not_subscribed'
  | 'message_too_large'
  | 'rate_limited'
  | 'token_invalid'
  | 'internal'

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

export type RequestId = string | number

/** The frame as an object with a usable `id`, or why not (the id is kept when it was readable). */
export function parseFrame(
  text: string,
): { frame: Record<string, unknown>; id: RequestId } | { error: RtError; id: RequestId | undefined } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { error: new RtError('bad_request', 'The frame is not valid JSON.'), id: undefined }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: new RtError('bad_request', 'A frame must be a JSON object.'), id: undefined }
  }
  const frame = value as Record<string, unknown>
  const id = isRequestId(frame.id) ? frame.id : undefined
  if (typeof frame.type !== 'string')
    return { error: new RtError('bad_request', 'The frame needs a string "type".'), id }
  if (id === undefined)
    return {
      error: new RtError('bad_request', 'A request needs an "id" (a string of at most 128 characters or a number).'),
      id,
    }
  return { frame, id }
}

const isRequestId = (v: unknown): v is RequestId =>
  (typeof v === 'string' && v.length > 0 && v.length <= 128) || (typeof v === 'number' && Number.isFinite(v))

const bad = (message: string) => new RtError('bad_request', message)

export function channelName(value: unknown, field = 'channel'): string {
  if (typeof value !== 'string') throw bad(`"${field}" must be a string.`)
  if (!CHANNEL_NAME.test(value)) throw new RtError('invalid_channel', `Channel names ${CHANNEL_NAME_RULE}.`)
  return value
}

export interface Since {
  epoch: string
  offset: number
}

export function since(value: unknown): Since | undefined {
  if (value === undefined || value === null) return undefined
  const v = value as Partial<Since>
  if (typeof value !== 'object' || typeof v.epoch !== 'string' || v.epoch.length > 200 || !isOffset(v.offset)) {
    throw bad('"since" must be { epoch: string, offset: integer ≥ 0 }.')
  }
  return { epoch: v.epoch, offset: v.offset }
}

export const isOffset = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

export function historyLimit(value: unknown): number {
  if (value === undefined || value === null) return DEFAULTS.historyLimit
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > DEFAULTS.maxHistoryLimit) {
    throw bad(`"limit" must be an integer from 1 to ${DEFAULTS.maxHistoryLimit}.`)
  }
  return value
}

export function eventName(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > DEFAULTS.maxEventLength) {
    throw bad(`"event" must be a string of 1–${DEFAULTS.maxEventLength} characters.`)
  }
  return value
}

export function idempotencyKey(value: unknown): string {
  if (typeof value !== 'string' || !/^[\x20-\x7e]{1,255}$/.test(value))
    throw bad('"idempotencyKey" must be 1–255 printable ASCII characters.')
  return value
}

export function token(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw bad('"token" must be a non-empty string.')
  return value
}

/** The close reason: a short JSON object (≤ 123 bytes, the WebSocket limit). */
export function closeReason(name: string, retryAfterMs?: number): string {
  return JSON.stringify({ code: name, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) })
}
