// Request checks shared by every route: each refusal is a 400 `invalid_parameter` naming the
// field (`details: [{ field, message }]`), as the contract's `ErrorDetail` says. Core's client
// checks (packages/core/src/validate.ts) use the same names: requireString/Number/OneOf/….
import { HttpError } from './http-errors.js'
import { isPlainObject } from './http-utils.js'

export function invalid(field: string, message: string): HttpError {
  return new HttpError(400, 'invalid_parameter', `Invalid ${field}: ${message}.`, [{ field, message }])
}

export function requireBody(body: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!body) throw new HttpError(400, 'invalid_body', 'Request body must be a JSON object.')
  return body
}

/** A non-empty string of at most `max` characters, returned as given. */
export function requireText(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max)
    throw invalid(field, `must be a non-empty string of at most ${max} characters`)
  return value
}

export function requireNumber(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw invalid(field, `must be a number from ${min} to ${max}`)
  return value
}

export function requireOneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw invalid(field, `must be one of ${allowed.join(', ')}`)
  return value as T
}

export function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalid(field, 'must be a JSON object')
  return value
}

export function requireLatLng(value: unknown, field: string): { lat: number; lng: number } {
  if (!isPlainObject(value)) throw invalid(field, 'must be an object { lat, lng }')
  return {
    lat: requireNumber(value.lat, `${field}.lat`, -90, 90),
    lng: requireNumber(value.lng, `${field}.lng`, -180, 180),
  }
}

/** A query-string number: plain decimal notation only. */
export function numberParam(raw: string, field: string, min: number, max: number): number {
  const n = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN
  if (!(n >= min && n <= max)) throw invalid(field, `must be a number from ${min} to ${max}`)
  return n
}

/** `lat,lng` in a query string. */
export function latLngParam(raw: string, field: string): { lat: number; lng: number } {
  const [lat, lng, extra] = raw.split(',')
  if (lat === undefined || lng === undefined || extra !== undefined) throw invalid(field, 'must be "lat,lng"')
  return {
    lat: numberParam(lat.trim(), `${field}.lat`, -90, 90),
    lng: numberParam(lng.trim(), `${field}.lng`, -180, 180),
  }
}

/** An optional free-text query parameter ('' reads as absent, as clients often send it). */
export function textParam(raw: string | null, field: string, max: number): string | undefined {
  if (raw === null || raw === '') return undefined
  if (raw.length > max) throw invalid(field, `must be at most ${max} characters`)
  return raw
}

export const notFound = (what: string, id: string): HttpError =>
  new HttpError(404, 'not_found', `No ${what} with id "${id.length > 100 ? `${id.slice(0, 100)}…` : id}".`)

/** `throw` as an expression, for `value ?? fail(...)`. */
export function fail(error: HttpError): never {
  throw error
}
