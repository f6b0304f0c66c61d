import { RealtimeError } from './core.js'

// The wire contract of docs/protocol.md: frame shapes, their checks, close codes.

export type Frame = { type: string; id?: string | number; [field: string]: unknown }

// Required fields per server frame type, by kind: typeof, except that arrays are `array`.
// Anything else that arrives is reported, never trusted.
const SHAPES: Record<string, string> = {
  connected: 'connectionId:string heartbeatMs:number maxMessageBytes:number expiresIn:number',
  subscribed: 'channels:array',
  unsubscribed: 'channels:array',
  ack: 'offset:number epoch:string messageId:string',
  ok: '',
  'presence.members': 'members:array',
  history: 'epoch:string offset:number messages:array complete:boolean',
  authed: 'expiresIn:number',
  pong: '',
  message: 'channel:string event:string offset:number epoch:string messageId:string',
  'presence.event': 'channel:string action:string member:object',
  heartbeat: '',
  error: 'error:object',
}
const PUSHES = ['message', 'presence.event', 'heartbeat', 'error']

// Shapes are parsed once: this runs for every frame on the hot receive path.
const parsed = new Map<string, string[][]>()

export function matches(value: unknown, shape: string): boolean {
  if (typeof value !== 'object' || value === null) return false
  let fields = parsed.get(shape)
  if (!fields) parsed.set(shape, (fields = shape ? shape.split(' ').map((f) => f.split(':')) : []))
  for (const [name, kind] of fields) {
    const v = (value as Record<string, unknown>)[name!]
    const actual = Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v
    if (actual !== kind || (kind === 'number' && !Number.isFinite(v))) return false
  }
  return true
}

export const isMessage = (m: unknown): boolean => matches(m, SHAPES.message!)

export const rtError = (code: string, message: string, temporary = false, cause?: unknown): RealtimeError =>
  new RealtimeError(message, { code, temporary, cause })

/** A frame (or a part of one) we cannot use. */
export const bad = (code = 'bad_frame') => rtError(code, 'Unreadable frame')

/** One server frame, checked; a `RealtimeError` for anything malformed, oversized or unknown. */
export function parseFrame(data: unknown, maxChars: number): Frame | RealtimeError {
  if (typeof data !== 'string') return bad()
  if (data.length > maxChars) return bad('frame_too_large')
  let frame: Frame
  try {
    frame = JSON.parse(data) as Frame // checked below, field by field
  } catch {
    return bad()
  }
  // An array or a primitive has no own `type`: only objects get past this.
  const type = frame?.type
  if (typeof type !== 'string') return bad()
  if (!Object.hasOwn(SHAPES, type)) return bad('unknown_frame')
  const id = typeof frame.id
  return matches(frame, SHAPES[type]!) && (PUSHES.includes(type) || id === 'string' || id === 'number') ? frame : bad()
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
  /** A delay the server asked for (4290), or 0 for "at once" (4100). */
  delayMs?: number
}

/** What a close code asks of the client (docs/protocol.md, Close codes): 40xx fatal, 41xx reauth. */
export function closeAction(code: number, reason: string): CloseAction {
  let parsed: { code?: unknown; retryAfterMs?: unknown } = {}
  try {
    parsed = Object(JSON.parse(reason) as unknown) as typeof parsed
  } catch {
    // A reason we cannot parse: the code decides.
  }
  // The reason names the code (`{"code":"token_revoked"}`); without one, the number does.
  const name = typeof parsed.code === 'string' ? parsed.code : `close_${code}`
  const after = parsed.retryAfterMs
  return {
    kind: code < 4000 || code >= 4200 ? 'retry' : code < 4100 ? 'fatal' : 'reauth',
    name,
    delayMs: code === 4100 ? 0 : code === 4290 && typeof after === 'number' && after >= 0 ? after : undefined,
  }
}
