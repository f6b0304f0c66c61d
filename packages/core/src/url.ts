import { ValidationError } from './errors.js'
import type { Query } from './types.js'

/**
 * `{base}{path}?{query}`; undefined and null values are left out, the rest stringified. A value
 * that would not survive that (an object, NaN, Infinity) is refused, never sent as `[object Object]`.
 */
export function buildUrl(base: string, path: string, query?: Query): string {
  let url = base + path
  if (query) {
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue
      const t = typeof value
      if (!(t === 'string' || t === 'boolean' || (t === 'number' && Number.isFinite(value)))) {
        throw new ValidationError(key, 'must be a string, a finite number or a boolean')
      }
      params.append(key, String(value))
    }
    const qs = params.toString()
    if (qs) url += `?${qs}`
  }
  return url
}
