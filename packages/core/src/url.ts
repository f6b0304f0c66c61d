import type { Query } from './types.js'

/** `{base}{path}?{query}`; undefined and null values are left out, the rest stringified. */
export function buildUrl(base: string, path: string, query?: Query): string {
  let url = base + path
  if (query) {
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) params.append(key, String(value))
    const qs = params.toString()
    if (qs) url += `?${qs}`
  }
  return url
}
