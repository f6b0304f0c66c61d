import {
  replaceEqualDeep,
  type CacheQuery,
  type ListData,
  type ListQuery,
  type ResourceEntry,
  type Snapshot,
  type WatchOptions,
} from '@tandem/core'
import { useCallback, useRef, useSyncExternalStore } from 'react'
import { DEFAULTS } from './defaults.js'
import { useTandem } from './use-tandem.js'

/** The options `useResources` and `useResource` share. */
export interface EntryOptions<D, R> extends WatchOptions {
  /** `false`: neither fetch nor subscribe (a dependent query); cached data still shows. Default `true`. */
  enabled?: boolean
  /** Suspend while there is no data, and throw a failed first fetch to the nearest error boundary. */
  suspense?: boolean
  /** Derives `data`. The result is structurally shared, so an equal result keeps its reference. */
  select?: (data: D) => R
  /** While a new key's first fetch runs, show the previous key's data (`isPlaceholderData: true`). */
  keepPreviousData?: boolean
}

export type EntryResult<S extends Snapshot<unknown>, R> = Omit<S, 'data'> & {
  data: R | undefined
  /** `data` is the previous key's (`keepPreviousData`), shown while this key loads. */
  isPlaceholderData: boolean
  /** Refetch now, whether stale or not. */
  refetch(): Promise<void>
}

const none = () => {}

/** The result fields that read more than their own snapshot field. */
const READS: Record<string, string[]> = { isPlaceholderData: ['data', 'status'], refetch: [], fetchNextPage: [] }

/** Did any field this component has read change? */
function changed(read: Set<string>, a: object, b: object): boolean {
  for (const k of read) if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return true
  return false
}

/** The binding: `useSyncExternalStore` over one cache entry. Fetching, dedupe and freshness live in the cache. */
export function useEntry<S extends Snapshot<unknown>, R>(
  query: CacheQuery,
  options: EntryOptions<never, R> & { initialData?: unknown },
): { result: EntryResult<S, R>; entry: ResourceEntry<S>; track: <T extends object>(result: T) => T } {
  const { client } = useTandem()
  const {
    enabled = true,
    suspense,
    select,
    keepPreviousData,
    initialData,
    staleTime,
    gcTime,
    refetchOnFocus,
    refetchOnReconnect,
    refetchInterval,
  } = options
  // A Map lookup; calling it every render revives an entry that was garbage-collected meanwhile.
  const entry = client.cache.get(query as ListQuery, {
    initialData: initialData as ListData<unknown> | undefined,
  }) as unknown as ResourceEntry<S>
  const watch: WatchOptions = {
    staleTime: suspense ? Math.max(staleTime ?? 0, DEFAULTS.suspenseStaleTime) : staleTime,
    gcTime,
    refetchOnFocus,
    refetchOnReconnect,
    refetchInterval,
  }
  const key = JSON.stringify(watch)
  // Resubscribe when the entry or an option's value changes, not for each render's new object.
  const subscribe = useCallback(
    (onChange: () => void) => (enabled ? entry.subscribe(onChange, watch) : none),
    [entry, enabled, key],
  )
  // Render tracking, as TanStack Query does: a change re-renders only if it touches a field this
  // component has read (a refetch that brings equal data does not re-render a list that never
  // reads `isFetching`). Until the component has read anything, every change renders.
  const seen = useRef<{ entry?: unknown; snap?: S; read: Set<string> }>({ read: new Set() })
  const getSnapshot = useCallback(() => {
    const next = entry.getSnapshot()
    const t = seen.current
    if (t.entry === entry && t.snap && t.read.size > 0 && !changed(t.read, t.snap, next)) return t.snap
    t.entry = entry
    t.snap = next
    return next
  }, [entry])
  useSyncExternalStore(subscribe, getSnapshot, entry.getSnapshot)
  // Render from the entry's current snapshot, so a field read for the first time is never stale.
  const snap = entry.getSnapshot()

  const previous = useRef<S | undefined>(undefined)
  const selected = useRef<{ input?: unknown; select?: unknown; output?: R }>({})
  let shown = snap
  if (snap.data !== undefined) previous.current = snap
  // Only the data this component last showed: a late answer for old params has no way in.
  else if (keepPreviousData && snap.status === 'pending' && previous.current)
    shown = { ...previous.current, isFetching: snap.isFetching }

  if (suspense && enabled && shown.status !== 'success' && shown.data === undefined) {
    // React retries the render when the promise settles; `prefetch` joins the fetch in flight.
    throw shown.status === 'error' && !shown.isFetching ? shown.error : client.cache.prefetch(query)
  }

  let data = shown.data as R | undefined
  if (select && data !== undefined) {
    const m = selected.current
    if (m.input !== data || m.select !== select)
      selected.current = { input: data, select, output: replaceEqualDeep(m.output, select(data as never)) }
    data = selected.current.output
  }
  const read = seen.current.read
  const track = <T extends object>(result: T): T => {
    const out = {} as T
    for (const k of Object.keys(result) as (keyof T & string)[]) {
      Object.defineProperty(out, k, {
        enumerable: true,
        get: () => {
          for (const f of READS[k] ?? [k]) read.add(f)
          // Read after the render (an event handler, a test): a field no render had read may have
          // changed without a re-render, so a plain snapshot field answers from the entry as it is now.
          const now = entry.getSnapshot() as Record<string, unknown>
          const plain = k in now && (k !== 'data' || (!select && !keepPreviousData))
          return now === (snap as unknown) || !plain ? result[k] : (now[k] as T[typeof k])
        },
      })
    }
    return out
  }
  return { result: { ...shown, data, isPlaceholderData: shown !== snap, refetch: entry.refetch }, entry, track }
}
