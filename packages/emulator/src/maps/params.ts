// Request checks of the maps routes: every refusal is a 400 naming the field, as in /v1/resources.
import { HttpError } from '../http-errors.js'
import { isPlainObject } from '../http-utils.js'
import { DEFAULTS } from './defaults.js'
import type { LatLng } from './geo.js'

export const invalid = (field: string, message: string): HttpError =>
  new HttpError(400, 'invalid_parameter', `Invalid ${field}: ${message}.`, [{ field, message }])

export function requireBody(body: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!body) throw new HttpError(400, 'invalid_body', 'Request body must be a JSON object.')
  return body
}

export function text(value: unknown, field: string, max: number = DEFAULTS.maxTextLength): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max)
    throw invalid(field, `must be a non-empty string of at most ${max} characters`)
  return value.trim()
}

export function number(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw invalid(field, `must be a number from ${min} to ${max}`)
  return value
}

export function latLng(value: unknown, field: string): LatLng {
  if (!isPlainObject(value)) throw invalid(field, 'must be an object { lat, lng }')
  return { lat: number(value.lat, `${field}.lat`, -90, 90), lng: number(value.lng, `${field}.lng`, -180, 180) }
}

/** A query-string number: plain decimal notation only. */
export function numberParam(raw: string, field: string, min: number, max: number): number {
  const n = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN
  if (!(n >= min && n <= max)) throw invalid(field, `must be a number from ${min} to ${max}`)
  return n
}

/** `lat,lng` in a query string. */
export function latLngParam(raw: string, field: string): LatLng {
  const [lat, lng, extra] = raw.split(',')
  if (lat === undefined || lng === undefined || extra !== undefined) throw invalid(field, 'must be "lat,lng"')
  return {
    lat: numberParam(lat.trim(), `${field}.lat`, -90, 90),
    lng: numberParam(lng.trim(), `${field}.lng`, -180, 180),
  }
}

export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw invalid(field, `must be one of ${allowed.join(', ')}`)
  return value as T
}
