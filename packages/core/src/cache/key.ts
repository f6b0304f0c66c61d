import type { CacheFilter, CacheQuery } from './types.js'

/** A private copy, so a caller mutating its params object cannot corrupt the key. */
export function normalizeQuery(q: CacheQuery): CacheQuery {
  const { service, collection, id, params } = q
  return id === undefined ? { service, collection, params: { ...params } } : { service, collection, id }
}

/** Stable across param order; `undefined` params are dropped (as they are from the URL). */
export function hashQuery(q: CacheQuery): string {
  const p = (q.params ?? {}) as Record<string, unknown>
  const params = Object.keys(p)
    .sort()
    .filter((k) => p[k] !== undefined)
    .map((k) => [k, p[k]])
  return JSON.stringify([q.service, q.collection, q.id ?? null, q.id === undefined ? params : null])
}

export function matchesFilter(q: CacheQuery, f: CacheFilter): boolean {
  const p = (f.params ?? {}) as Record<string, unknown>
  return (
    (f.service === undefined || f.service === q.service) &&
    (f.collection === undefined || f.collection === q.collection) &&
    (f.id === undefined || f.id === q.id) &&
    (f.params === undefined ||
      (q.id === undefined && Object.keys(p).every((k) => p[k] === undefined || q.params?.[k] === p[k])))
  )
}
