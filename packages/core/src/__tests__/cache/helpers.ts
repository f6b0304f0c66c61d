import { until } from '../../../../../test/utils/wait.js'
import type { ItemQuery, ListQuery, ListSnapshot, ResourceCache, WatchOptions } from '../../index.js'

// Shared by the cache's tests: a watcher that records every snapshot, and the queries they use.

/** Watches a key and lets the test wait (bounded) for a snapshot that satisfies a predicate. */
export function track<S = ListSnapshot>(cache: ResourceCache, query: ListQuery | ItemQuery, options?: WatchOptions) {
  const seen: S[] = []
  const waiters = new Set<() => void>()
  const off = cache.watch(
    query as ListQuery,
    (s) => {
      seen.push(s as S)
      for (const w of [...waiters]) w()
    },
    options,
  )
  /** The first snapshot, from the latest on, that satisfies `pred` (the timers are the real ones, whatever a test fakes). */
  const untilSnapshot = async (pred: (s: S) => boolean, label = 'a matching snapshot') => {
    let hit: S | undefined
    const matches = () => {
      const s = seen.at(-1)
      if (s === undefined || !pred(s)) return false
      hit = s
      return true
    }
    const on = (cb: () => void) => {
      waiters.add(cb)
      return () => void waiters.delete(cb)
    }
    await until(on, matches, 5_000, label)
    return hit as S
  }
  return { seen, off, until: untilSnapshot, last: () => seen.at(-1) as S }
}

export const settled = (s: { status: string; isFetching: boolean }) => s.status !== 'pending' && !s.isFetching

export const list = (
  service: 'maps' | 'support' | 'realtime',
  params: ListQuery['params'] = { limit: 10 },
): ListQuery => ({
  service,
  collection: 'resources',
  params,
})
