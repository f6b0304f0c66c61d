// Checks of query parameters and bodies: every refusal is a 400 naming the field, in the
// same shape as the generic resources routes use.
import { HttpError } from '../http-errors.js'
import { isPlainObject } from '../http-utils.js'
import { DEFAULTS } from './defaults.js'
import { STATUSES, type ConversationStatus } from './types.js'

export function invalid(field: string, message: string): HttpError {
  return new HttpError(400, 'invalid_parameter', `Invalid ${field}: ${message}.`, [{ field, message }])
}

export function requireBody(body: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!body) throw new HttpError(400, 'invalid_body', 'Request body must be a JSON object.')
  return body
}

export function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    throw invalid(field, `must be a non-empty string of at most ${max} characters`)
  }
  return value
}

export function status(value: unknown, field = 'status'): ConversationStatus {
  if (!STATUSES.includes(value as ConversationStatus)) throw invalid(field, `must be one of ${STATUSES.join(', ')}`)
  return value as ConversationStatus
}

export function email(value: unknown, field: string): string {
  const v = text(value, field, DEFAULTS.max.email).trim()
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) throw invalid(field, 'must be an email address')
  return v.toLowerCase()
}

/** Tags are trimmed, lower-cased and de-duplicated (as help desks do), in the order given. */
export function tags(value: unknown, field = 'tags'): string[] {
  const { tag, tags: most } = DEFAULTS.max
  if (!Array.isArray(value) || value.length > most) throw invalid(field, `must be an array of at most ${most} tags`)
  return [...new Set(value.map((t, i) => text(t, `${field}[${i}]`, tag).trim().toLowerCase()))]
}

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/

/** An ISO 8601 date or date-time query parameter, as epoch milliseconds. */
export function isoParam(raw: string | null, field: string): number | undefined {
  if (raw === null || raw === '') return undefined
  const ms = ISO.test(raw) ? Date.parse(raw) : NaN
  if (Number.isNaN(ms)) throw invalid(field, 'must be an ISO 8601 date-time such as 2025-01-01T00:00:00Z')
  return ms
}

/** An optional free-text query parameter ('' reads as absent, as clients often send it). */
export function textParam(raw: string | null, field: string, max: number = DEFAULTS.max.query): string | undefined {
  if (raw === null || raw === '') return undefined
  if (raw.length > max) throw invalid(field, `must be at most ${max} characters`)
  return raw
}

export function plainObject(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalid(field, 'must be a JSON object')
  return value
}

export const notFound = (what: string, id: string): HttpError =>
  new HttpError(404, 'not_found', `No ${what} with id "${id.length > 100 ? `${id.slice(0, 100)}…` : id}".`)

/** `throw` as an expression, for `value ?? fail(...)`. */
export function fail(error: HttpError): never {
  throw error
}
