import { LAT_MAX, LNG_MAX, type LatLng } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { ValidationError } from './errors.js'

// Compact input checks shared by the service clients: every refusal names the field; the sentence
// is development's (CONTRIBUTING.md, "Error messages"), dropped from production builds.

const fail = (field: string, sentence: string | false, evidence?: string): never => {
  throw new ValidationError(field, sentence, evidence)
}

export function requireString(value: unknown, field: string, max = 1_000): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max)
    fail(
      field,
      DEV && process.env.NODE_ENV !== 'production' && `must be a non-empty string of at most ${max} characters`,
    )
  return value as string
}

export function requireNumber(value: unknown, field: string, min: number, max: number, integer = false): number {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    fail(
      field,
      DEV &&
        process.env.NODE_ENV !== 'production' &&
        `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`,
    )
  }
  return value as number
}

export function requireOneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T))
    fail(
      field,
      DEV && process.env.NODE_ENV !== 'production' && `must be one of ${allowed.join(', ')}`,
      allowed.join('|'),
    )
  return value as T
}

export function requireLatLng(value: unknown, field: string): LatLng {
  if (typeof value !== 'object' || value === null)
    return fail(field, DEV && process.env.NODE_ENV !== 'production' && 'must be { lat, lng }')
  const v = value as Partial<LatLng>
  return {
    lat: requireNumber(v.lat, `${field}.lat`, -LAT_MAX, LAT_MAX),
    lng: requireNumber(v.lng, `${field}.lng`, -LNG_MAX, LNG_MAX),
  }
}

export function requireArray<T>(
  value: unknown,
  field: string,
  max: number,
  each: (item: unknown, field: string) => T,
  min = 0,
): T[] {
  if (!Array.isArray(value) || value.length > max || value.length < min)
    fail(
      field,
      DEV &&
        process.env.NODE_ENV !== 'production' &&
        (min ? `must be an array of ${min} to ${max} items` : `must be an array of at most ${max} items`),
    )
  return (value as unknown[]).map((item, i) => each(item, `${field}[${i}]`))
}

export function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(field, DEV && process.env.NODE_ENV !== 'production' && 'must be an object')
  return value as Record<string, unknown>
}

/** Runs `check` only when the value is present. */
export const optional = <T>(value: unknown, check: (v: unknown) => T): T | undefined =>
  value === undefined ? undefined : check(value)
