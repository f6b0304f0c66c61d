import type { CacheFilter, CacheQuery } from './types.js'

/** A private copy, so a caller mutating its params object cannot corrupt the key. */
export function normalizeQuery(q: CacheQuery): CacheQuery {
  if (q.key !== undefined) return { key: [...q.key], fn: q.fn }
  const { service, collection, id, params } = q
  return id === undefined ? { service, collection, params: { ...params } } : { service, collection, id }
}

/** Stable across param order; `undefined` params are dropped (as they are from the URL). */
export function hashQuery(q: CacheQuery): string {
  if (q.key !== undefined) return JSON.stringify(['call', q.key])
  const p = (q.params ?? {}) as Record<string, unknown>
  const params = Object.keys(p)
    .sort()
    .filter((k) => p[k] !== undefined)
    .map((k) => [k, p[k]])
  return JSON.stringify([q.service, q.collection, q.id ?? null, q.id === undefined ? params : null])
}

export function matchesFilter(q: CacheQuery, f: CacheFilter): boolean {
  if (q.key !== undefined || f.key !== undefined) {
    // Calls match by key prefix only; collection filters never reach them, nor they collections.
    const prefix = f.key
    return (
      q.key !== undefined &&
      prefix !== undefined &&
      prefix.every((part, i) => JSON.stringify(part) === JSON.stringify(q.key[i]))
    )
  }
  const p = (f.params ?? {}) as Record<string, unknown>
  return (
    (f.service === undefined || f.service === q.service) &&
    (f.collection === undefined || f.collection === q.collection) &&
    (f.id === undefined || f.id === q.id) &&
    (f.params === undefined ||
      (q.id === undefined && Object.keys(p).every((k) => p[k] === undefined || q.params?.[k] === p[k])))
  )
}
