import { RealtimeError } from '@tandem/core'

// The wire contract of docs/protocol.md: frame shapes, their checks, close codes.

export type Frame = { type: string; id?: string | number; [field: string]: unknown }

// Required fields per server frame type (s string, n number, b boolean, a array, o object).
// Anything else that arrives is reported, never trusted.
const SHAPES: Record<string, string> = {
  connected: 'connectionId:s heartbeatMs:n maxMessageBytes:n expiresIn:n',
  subscribed: 'channels:a',
  unsubscribed: 'channels:a',
  ack: 'offset:n epoch:s messageId:s',
  ok: '',
  'presence.members': 'members:a',
  history: 'epoch:s offset:n messages:a complete:b',
  authed: 'expiresIn:n',
  pong: '',
  message: 'channel:s event:s offset:n epoch:s messageId:s',
  'presence.event': 'channel:s action:s member:o',
  heartbeat: '',
  error: 'error:o',
}
const PUSHES = new Set(['message', 'presence.event', 'heartbeat', 'error'])

const TYPEOF: Record<string, string> = { s: 'string', n: 'number', b: 'boolean', o: 'object', a: 'object' }

// Shapes are parsed once: this runs for every frame on the hot receive path.
const parsed = new Map<string, string[][]>()

export function matches(value: unknown, shape: string): boolean {
  if (typeof value !== 'object' || value === null) return false
  let fields = parsed.get(shape)
  if (!fields) parsed.set(shape, (fields = shape ? shape.split(' ').map((f) => f.split(':')) : []))
  for (const [name, kind] of fields) {
    const v = (value as Record<string, unknown>)[name!]
    if (kind && (typeof v !== TYPEOF[kind] || v === null || (kind === 'a') !== Array.isArray(v) || (kind === 'n' && !Number.isFinite(v)))) return false
  }
  return true
}

export const isMessage = (m: unknown): boolean => matches(m, SHAPES.message!)

export const rtError = (code: string, message: string, temporary = false): RealtimeError =>
  new RealtimeError(message, { code, temporary })

const bad = (code = 'bad_frame') => rtError(code, 'Unreadable frame from the service')

/** One server frame, checked; a `RealtimeError` for anything malformed, oversized or unknown. */
export function parseFrame(data: unknown, maxChars: number): Frame | RealtimeError {
  if (typeof data !== 'string') return bad()
  if (data.length > maxChars) return bad('frame_too_large')
  let frame: Frame
  try {
    frame = JSON.parse(data)
  } catch {
    return bad()
  }
  const type = frame?.type
  if (typeof type !== 'string' || Array.isArray(frame)) return bad()
  if (!Object.hasOwn(SHAPES, type)) return bad('unknown_frame')
  const id = typeof frame.id
  return matches(frame, SHAPES[type]!) && (PUSHES.has(type) || id === 'string' || id === 'number') ? frame : bad()
}

/** Anything thrown (a token provider's `AuthError`, …) as a `RealtimeError`. */
export const asError = (e: unknown, code: string, temporary: boolean): RealtimeError => {
  const c = e as { message?: string; code?: string }
  return new RealtimeError(c.message ?? code, { code: c.code ?? code, temporary, cause: e })
}

/** A server `Error` object as a `RealtimeError`. */
export function toError(e: unknown): RealtimeError {
  const o = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined)
  const retryAfterMs = typeof o.retryAfterMs === 'number' ? o.retryAfterMs : undefined
  return new RealtimeError(str(o.message) ?? 'Realtime error', {
    code: str(o.code) ?? 'internal',
    temporary: o.temporary === true,
    requestId: str(o.requestId),
    details: retryAfterMs === undefined ? undefined : { retryAfterMs },
  })
}

export const retryAfter = (e: RealtimeError): number | undefined => (e.details as { retryAfterMs?: number } | undefined)?.retryAfterMs

export interface CloseAction {
  /** fatal: stop; reauth: drop the token, then reconnect; retry: reconnect. */
  kind: 'fatal' | 'reauth' | 'retry'
  name: string
  /** A delay the server asked for (4290), or 0 for "at once" (4100). */
  delayMs?: number
}

/** What a close code asks of the client (docs/protocol.md, Close codes). */
export function closeAction(code: number, reason: string): CloseAction {
  let parsed: { code?: unknown; retryAfterMs?: unknown } = {}
  try {
    parsed = JSON.parse(reason) ?? {}
  } catch {
    // A reason we cannot parse: the code decides.
  }
  // The reason names the code (`{"code":"token_revoked"}`); without one, the number does.
  const name = typeof parsed.code === 'string' ? parsed.code : `close_${code}`
  if (code >= 4000 && code < 4100) return { kind: 'fatal', name }
  if (code >= 4100 && code < 4200) return { kind: 'reauth', name, delayMs: code === 4100 ? 0 : undefined }
  const after = parsed.retryAfterMs
  return { kind: 'retry', name, delayMs: code === 4290 && typeof after === 'number' && after >= 0 ? after : undefined }
}
