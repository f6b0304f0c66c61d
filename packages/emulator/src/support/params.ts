// The support routes' own checks; the shared ones are in ../validate.ts.
import { invalid, requireOneOf, requireText } from '../validate.js'
import { DEFAULTS } from './defaults.js'
import { STATUSES, type ConversationStatus } from './types.js'

export const status = (value: unknown, field = 'status'): ConversationStatus => requireOneOf(value, field, STATUSES)

export function email(value: unknown, field: string): string {
  const v = requireText(value, field, DEFAULTS.max.email).trim()
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) throw invalid(field, 'must be an email address')
  return v.toLowerCase()
}

/** Tags are trimmed, lower-cased and de-duplicated (as help desks do), in the order given. */
export function tags(value: unknown, field = 'tags'): string[] {
  const { tag, tags: most } = DEFAULTS.max
  if (!Array.isArray(value) || value.length > most) throw invalid(field, `must be an array of at most ${most} tags`)
  return [...new Set(value.map((t, i) => requireText(t, `${field}[${i}]`, tag).trim().toLowerCase()))]
}

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/

/** An ISO 8601 date or date-time query parameter, as epoch milliseconds. */
export function isoParam(raw: string | null, field: string): number | undefined {
  if (raw === null || raw === '') return undefined
  const ms = ISO.test(raw) ? Date.parse(raw) : NaN
  if (Number.isNaN(ms)) throw invalid(field, 'must be an ISO 8601 date-time such as 2025-01-01T00:00:00Z')
  return ms
}
