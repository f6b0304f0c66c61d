import { SERVICES } from '@tandem/contract'
import { wrongData } from '../cache/data-fits.js'
import { hashQuery } from '../cache/key.js'
import type { CacheQuery, DehydratedState } from '../cache/types.js'
import type { RestoreProblem } from './types.js'
import { isObject, isRecord } from '@tandem/contract'

// A saved cache, and what another tab posts, are read entry by entry: one entry of the wrong shape
// is left out on its own (with why), never the others, and never in the cache.

export type SavedEntry = DehydratedState['entries'][number]

/**
 * Why `e` is not a saved entry the cache can take, or undefined: a list's or an item's query
 * (calls never travel), a time not after `now`, and data that fits the query (`wrongData`: what
 * the cache reads, and the contract's items of its collection).
 */
export function whyNotSaved(e: unknown, now: number): string | undefined {
  if (!isObject(e)) return 'not an entry'
  const { query: q, dataUpdatedAt: at } = e
  if (!isRecord(q)) return 'query: not a query'
  if (q.key !== undefined || q.fn !== undefined) return 'query.key: a call is never saved'
  if (!(SERVICES as readonly unknown[]).includes(q.service)) return 'query.service: not a service'
  if (typeof q.collection !== 'string' || q.collection === '') return 'query.collection: not a collection'
  if (q.id !== undefined && (typeof q.id !== 'string' || q.id === '')) return 'query.id: not an id'
  if (q.params !== undefined && !isRecord(q.params)) return 'query.params: not an object'
  // Never after now: data from the future would stay fresh until then and outrank every newer answer.
  if (typeof at !== 'number' || !(at >= 0 && at <= now)) return 'dataUpdatedAt: not a time before now'
  return wrongData(q as unknown as CacheQuery, e.data)
}

/** How a problem names its entry: the cache's key for its query (`cache.inspect()`'s `hash`), else its place. */
export function keyOf(e: unknown, index: number): string {
  try {
    if (isObject(e) && isRecord(e.query)) return hashQuery(e.query as unknown as CacheQuery)
  } catch {
    // A query that cannot be hashed (a cycle, from a structured clone): named by its place.
  }
  return `entries[${index}]`
}

/** The entries the cache can take, and a problem for each of the others. */
export function splitSaved(raw: readonly unknown[], now: number): { fit: SavedEntry[]; problems: RestoreProblem[] } {
  const fit: SavedEntry[] = []
  const problems: RestoreProblem[] = []
  raw.forEach((e, i) => {
    const why = whyNotSaved(e, now)
    if (why === undefined) fit.push(e as SavedEntry)
    else problems.push({ key: keyOf(e, i), why })
  })
  return { fit, problems }
}
