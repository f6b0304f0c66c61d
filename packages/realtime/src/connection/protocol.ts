import { MESSAGE_FIELDS, POSITION_FIELDS, SERVER_FRAME_FIELDS, hasFields } from '@tandem/contract/frame-fields'
import {
  CLOSE,
  MAX_ID,
  closeClass,
  closeName,
  type CloseClass,
  type ErrorBody as ContractErrorBody,
  type ServerFrame as ContractServerFrame,
} from '@tandem/contract'
import { RealtimeError } from '../core.js'
import { OPEN_TIMEOUT_MS } from '../defaults.js'
import type { Message, Position } from '../types.js'

// The wire contract of docs/protocol.md: close codes, the frames a server sends (a typed union,
// each checked before anything reads it), and what a close asks of the client.

export { CLOSE }

/** An `Error` object as the service sends it (the contract's `ErrorBody`). */
export type ErrorBody = ContractErrorBody

/** A channel's result in a `subscribed` reply. */
export type SubscribeResult = FrameOf<'subscribed'>['channels'][number]

type Id = string | number

type WithId<F> = F extends unknown ? ('id' extends keyof F ? F : F & { id?: undefined }) : never

/**
 * Every frame a server sends, from the contract's AsyncAPI (`@tandem/contract`); pushes get
 * `id?: undefined`, so a frame narrows to a reply by its `id`. Each is still checked at run time
 * (`parseFrame`) before anything reads it.
 */
export type ServerFrame = WithId<ContractServerFrame>

export type FrameType = ServerFrame['type']
export type FrameOf<T extends FrameType> = Extract<ServerFrame, { type: T }>
/** A reply to a request: any frame with an `id`. */
export type Reply = Extract<ServerFrame, { id: Id }> | FrameOf<'error'>

/** What the client sends (requests carry an `id`, added when sent). */
export type ClientFrame = { type: string; [field: string]: unknown }

export const isMessage = (m: unknown): m is Message => hasFields(m, MESSAGE_FIELDS)

/** A position the client sends (`since`, one kept over a reload): the contract's, with an epoch of 1–`MAX_ID` characters. */
export const isSince = (p: unknown): p is Position =>
  hasFields(p, POSITION_FIELDS) && (p as Position).epoch !== '' && (p as Position).epoch.length <= MAX_ID

export const rtError = (code: string, message: string, temporary = false, cause?: unknown): RealtimeError =>
  new RealtimeError(message, { code, temporary, cause })

/** A frame (or a part of one) we cannot use. */
export const bad = (code = 'bad_frame') => rtError(code, 'Unreadable frame')

/** One server frame, checked; a `RealtimeError` for anything malformed, oversized or unknown. */
export function parseFrame(data: unknown, maxChars: number): ServerFrame | RealtimeError {
  if (typeof data !== 'string') return bad()
  if (data.length > maxChars) return bad('frame_too_large')
  let frame: unknown
  try {
    frame = JSON.parse(data)
  } catch {
    return bad()
  }
  // An array or a primitive has no own `type`: only objects get past this.
  const type = (frame as { type?: unknown } | null)?.type
  if (typeof type !== 'string') return bad()
  if (!Object.hasOwn(SERVER_FRAME_FIELDS, type)) return bad('unknown_frame')
  // The contract's required fields: a reply's `id` among them, so a push never reads as a reply.
  return hasFields(frame, SERVER_FRAME_FIELDS[type as FrameType]) ? (frame as ServerFrame) : bad()
}

/** Anything thrown (a token provider's `AuthError`, …) as a `RealtimeError`. */
export const asError = (e: unknown, code: string, temporary: boolean): RealtimeError => {
  const c = e as { message?: string; code?: string }
  return rtError(c.code ?? code, c.message ?? code, temporary, e)
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined)

/** A server `Error` object as a `RealtimeError`. */
export function toError(e: unknown): RealtimeError {
  // Object(): null, undefined and primitives become objects with none of these fields.
  const { message, code, temporary, requestId, retryAfterMs } = Object(e) as Partial<
    Record<'message' | 'code' | 'temporary' | 'requestId' | 'retryAfterMs', unknown>
  >
  return new RealtimeError(str(message) ?? 'Realtime error', {
    code: str(code) ?? 'internal',
    temporary: temporary === true,
    requestId: str(requestId),
    details: typeof retryAfterMs === 'number' ? { retryAfterMs } : undefined,
  })
}

export interface CloseAction {
  /** fatal: stop; reauth: drop the token, then reconnect; retry: reconnect. */
  kind: CloseClass
  name: string
  /** `token_expired`: reconnect at once with a fresh token (when the session had lasted). */
  atOnce: boolean
  /** The wait a `rate_limited` close asked for, as sent: to be clamped before any use. */
  retryAfterMs?: unknown
}

/** What a close code asks of the client (docs/protocol.md, "Close codes"): 40xx fatal, 41xx reauth, else retry. */
export function closeAction(code: number, reason: string): CloseAction {
  const kind = closeClass(code)
  let parsed: { code?: unknown; retryAfterMs?: unknown } = {}
  try {
    parsed = Object(JSON.parse(reason) as unknown) as typeof parsed
  } catch {
    // A reason we cannot parse: the code decides.
  }
  // A fatal close is named by its number alone: a reason cannot make it read as temporary.
  const named = kind !== 'fatal' && typeof parsed.code === 'string' ? parsed.code : undefined
  return {
    kind,
    name: named ?? closeName(code) ?? `close_${code}`,
    atOnce: code === CLOSE.token_expired,
    retryAfterMs: code === CLOSE.rate_limited ? parsed.retryAfterMs : undefined,
  }
}

/**
 * A socket close's code and reason. In a browser, partysocket copies its own close events (after
 * a failed or timed-out open) with the wrong constructor arguments, so code and reason are lost:
 * read as a failed open (1006), or as its timeout when the socket waited that long.
 */
export const closeOf = (e: { code: unknown; reason: unknown }, openedAt: number): [number, string] =>
  typeof e.code === 'number'
    ? [e.code, e.reason as string]
    : Date.now() - openedAt < OPEN_TIMEOUT_MS - 100
      ? [1006, '']
      : [1000, 'timeout']
