import { CLOSE, type ErrorBody as ContractErrorBody, type ServerFrame as ContractServerFrame } from '@tandem/contract'
import { RealtimeError } from './core.js'
import { OPEN_TIMEOUT_MS } from './defaults.js'
import type { Message } from './types.js'

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

// Required fields per server frame type, by kind: typeof, except that arrays are `array`, `offset`
// is a positive safe integer and `count` a non-negative one. Anything else is reported, never trusted.
const SHAPES: Record<FrameType, string> = {
  connected: 'connectionId:string heartbeatMs:number maxMessageBytes:count expiresIn:number',
  subscribed: 'channels:array',
  unsubscribed: 'channels:array',
  ack: 'offset:offset epoch:string messageId:string',
  ok: '',
  'presence.members': 'members:array',
  history: 'epoch:string offset:count messages:array complete:boolean',
  authed: 'expiresIn:number',
  pong: '',
  message: 'channel:string event:string offset:offset epoch:string messageId:string',
  'presence.event': 'channel:string action:string member:object',
  heartbeat: '',
  error: 'error:object',
}
const PUSHES = new Set<FrameType>(['message', 'presence.event', 'heartbeat', 'error'])

// Shapes are parsed once: this runs for every frame on the hot receive path.
const parsed = new Map<string, string[][]>()

export function matches(value: unknown, shape: string): boolean {
  if (typeof value !== 'object' || value === null) return false
  let fields = parsed.get(shape)
  if (!fields) parsed.set(shape, (fields = shape ? shape.split(' ').map((f) => f.split(':')) : []))
  for (const [name, kind] of fields) {
    const v = (value as Record<string, unknown>)[name!]
    if (kind === 'offset' || kind === 'count') {
      if (!Number.isSafeInteger(v) || (v as number) < (kind === 'offset' ? 1 : 0)) return false
      continue
    }
    const actual = Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v
    if (actual !== kind || (kind === 'number' && !Number.isFinite(v))) return false
  }
  return true
}

export const isMessage = (m: unknown): m is Message => matches(m, SHAPES.message)

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
  if (!Object.hasOwn(SHAPES, type)) return bad('unknown_frame')
  const id = typeof (frame as { id?: unknown }).id
  const known = type as FrameType
  return matches(frame, SHAPES[known]) && (PUSHES.has(known) || id === 'string' || id === 'number')
    ? (frame as ServerFrame)
    : bad()
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
  const { message, code, temporary, requestId, retryAfterMs } = Object(e) as Record<string, unknown>
  return new RealtimeError(str(message) ?? 'Realtime error', {
    code: str(code) ?? 'internal',
    temporary: temporary === true,
    requestId: str(requestId),
    details: typeof retryAfterMs === 'number' ? { retryAfterMs } : undefined,
  })
}

export interface CloseAction {
  /** fatal: stop; reauth: drop the token, then reconnect; retry: reconnect. */
  kind: 'fatal' | 'reauth' | 'retry'
  name: string
  /** `token_expired`: reconnect at once with a fresh token (when the session had lasted). */
  atOnce: boolean
  /** The wait a `rate_limited` close asked for, as sent: to be clamped before any use. */
  retryAfterMs?: unknown
}

const CLOSE_NAMES = new Map<number, string>(Object.entries(CLOSE).map(([name, code]) => [code, name]))

/** What a close code asks of the client (docs/protocol.md, "Close codes"): 40xx fatal, 41xx reauth, else retry. */
export function closeAction(code: number, reason: string): CloseAction {
  const kind = code < 4000 || code >= 4200 ? 'retry' : code < 4100 ? 'fatal' : 'reauth'
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
    name: named ?? CLOSE_NAMES.get(code) ?? `close_${code}`,
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
