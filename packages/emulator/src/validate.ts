// What the handlers still check themselves: the rules the contract's schemas cannot state (a
// latitude's range inside `lat,lng` text, rules across parameters; docs/contract.md). Shapes,
// lengths, patterns and ranges of fields are checked against the contract before a handler runs
// (spec/rest-inputs.ts). Each refusal is a 400 `invalid_parameter` naming the field.
import { LAT_MAX, LNG_MAX } from '@tandem/contract'
import { HttpError } from './http-errors.js'

export function invalid(field: string, message: string): HttpError {
  return new HttpError(400, 'invalid_parameter', `Invalid ${field}: ${message}.`, [{ field, message }])
}

/** A number in query text (its form, plain decimals, is the contract's pattern), within a range. */
export function numberParam(raw: string, field: string, min: number, max: number): number {
  const n = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN
  if (!(n >= min && n <= max)) throw invalid(field, `must be a number from ${min} to ${max}`)
  return n
}

/** `lat,lng` in a query string: a latitude from -90 to 90 and a longitude from -180 to 180. */
export function latLngParam(raw: string, field: string): { lat: number; lng: number } {
  const [lat = '', lng = ''] = raw.split(',')
  return {
    lat: numberParam(lat, `${field}.lat`, -LAT_MAX, LAT_MAX),
    lng: numberParam(lng, `${field}.lng`, -LNG_MAX, LNG_MAX),
  }
}

export const notFound = (what: string, id: string): HttpError =>
  new HttpError(404, 'not_found', `No ${what} with id "${id.length > 100 ? `${id.slice(0, 100)}…` : id}".`)

/** `throw` as an expression, for `value ?? fail(...)`. */
export function fail(error: HttpError): never {
  throw error
}
