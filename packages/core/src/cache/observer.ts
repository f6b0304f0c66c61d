import type { TandemError } from '../errors.js'
import type { Unsubscribe } from '../types.js'
import { replaceEqualDeep } from './structural-sharing.js'
import type { ResourceEntry, Snapshot, WatchOptions } from './types.js'

// One reader's view of a cache entry (the model is TanStack's QueryObserver): the per-reader
// options (`enabled`, `select`, `keepPreviousData`, the watch options) and render tracking live
// here, in core, so a UI binding is a `useSyncExternalStore` over `subscribe`/`getCurrentResult`.

export interface ObserveOptions<D = unknown, R = D> extends WatchOptions {
  /**
   * `false`: neither fetch nor subscribe (a dependent query); cached data still shows.
   * @default true
   */
  enabled?: boolean
  /** Derives `data`. The result is structurally shared, so an equal result keeps its reference. */
  select?: (data: D) => R
  /**
   * While a new key's first fetch runs, show the data this reader showed before (`isPlaceholderData: true`).
   * @default false
   */
  keepPreviousData?: boolean
}

export type ObserverResult<S extends Snapshot<unknown>, R> = Omit<S, 'data' | 'error'> & {
  data: R | undefined
  error: TandemError | null
  /** `data` is the previous key's (`keepPreviousData`), shown while this key loads. */
  isPlaceholderData: boolean
  /** Refetch now, whether stale or not. */
  refetch: () => Promise<void>
  /** Append the next page of a list (a no-op on the last page, and for items). */
  fetchNextPage: () => Promise<void>
}

export interface EntryObserver<S extends Snapshot<unknown>, R> {
  /** What a reader of `entry` under `options` sees now (a render). Subscribes to and fetches nothing. */
  getOptimisticResult: (entry: ResourceEntry<S>, options?: ObserveOptions<never, R>) => ObserverResult<S, R>
  /** Commits `entry` and `options` (after a render): moves the subscription if the entry or an option changed. */
  setOptions: (entry: ResourceEntry<S>, options?: ObserveOptions<never, R>) => void
  /** `listener` runs when a field a reader has read changes; until something was read, on every change. */
  subscribe: (listener: () => void) => Unsubscribe
  /** The committed result: the same object until it changes. */
  getCurrentResult: () => ObserverResult<S, R>
  /** `result` with getters that record the fields read, so changes to the others notify nobody. */
  trackResult: (result: ObserverResult<S, R>) => ObserverResult<S, R>
}

/** Result fields that depend on more than their own snapshot field. */
const READS: Record<string, string[]> = { isPlaceholderData: ['data', 'status'], refetch: [], fetchNextPage: [] }

interface Source {
  entry: ResourceEntry<Snapshot<unknown>>
  /** The entry's snapshot the result was made from. */
  snap: Snapshot<unknown>
  /** `data` is the snapshot's own (no select, no placeholder). */
  plainData: boolean
}

/**
 * An observer of `entry` (the first render's; `setOptions` moves it to others).
 *
 * @example
 * ```ts
 * const entry = client.cache.get({ service: 'support', collection: 'resources', params: { limit: 10 } })
 * const observer = createEntryObserver(entry, { select: (d) => d.pages.length })
 * const off = observer.subscribe(() => console.log(observer.getCurrentResult().data))
 * ```
 */
export function createEntryObserver<S extends Snapshot<unknown>, R = S['data']>(
  initial: ResourceEntry<S>,
  initialOptions: ObserveOptions<never, R> = {},
): EntryObserver<S, R> {
  type Result = ObserverResult<S, R>
  const listeners = new Set<() => void>()
  const tracked = new Set<string>()
  // Weak: keyed by the results handed out, which this observer must not keep alive.
  const sources = new WeakMap<object, Source>()
  let entry = initial
  let options = initialOptions
  let detach: Unsubscribe | undefined
  let current: Result | undefined
  // The last snapshot with data this reader was shown (keepPreviousData), and the select memo.
  let lastWithData: S | undefined
  let selected: { input?: unknown; select?: unknown; output?: R } = {}
  let made: { entry?: unknown; shown?: unknown; data?: unknown; result?: Result } = {}

  const keyOf = (o: ObserveOptions<never, R>) =>
    JSON.stringify([
      o.enabled !== false,
      o.staleTime,
      o.gcTime,
      o.refetchOnFocus,
      o.refetchOnReconnect,
      o.refetchInterval,
    ])
  let watchKey = keyOf(options)

  function compute(e: ResourceEntry<S>, o: ObserveOptions<never, R> = {}): Result {
    const snap = e.getSnapshot()
    let shown: S = snap
    // Only data this reader showed: a late answer for a key it has left has no way in.
    if (snap.data !== undefined) lastWithData = snap
    else if (o.keepPreviousData && snap.status === 'pending' && lastWithData)
      shown = { ...lastWithData, isFetching: snap.isFetching }
    let data = shown.data as R | undefined
    if (o.select && data !== undefined) {
      const m = selected
      if (m.input !== data || m.select !== o.select)
        selected = { input: data, select: o.select, output: replaceEqualDeep(m.output, o.select(data as never)) }
      data = selected.output
    }
    // The same inputs give the same object, so the committed result keeps its reference.
    if (made.entry === e && made.shown === shown && made.data === data && made.result) return made.result
    const result = {
      ...shown,
      data,
      isPlaceholderData: shown !== snap,
      refetch: e.refetch,
      fetchNextPage: e.fetchNextPage,
    } as unknown as Result
    sources.set(result, { entry: e, snap, plainData: !o.select && shown === snap })
    made = { entry: e, shown, data, result }
    return result
  }

  function notifies(previous: Result | undefined, next: Result): boolean {
    if (!previous || tracked.size === 0) return true
    for (const k of tracked)
      if ((previous as Record<string, unknown>)[k] !== (next as Record<string, unknown>)[k]) return true
    return false
  }

  function update(): void {
    const next = compute(entry, options)
    if (next === current) return
    const previous = current
    current = next
    if (notifies(previous, next)) for (const listener of [...listeners]) listener()
  }

  function attach(): void {
    detach?.()
    detach = options.enabled !== false ? entry.subscribe(update, options) : undefined
  }

  return {
    getOptimisticResult: compute,
    setOptions(e, o = {}) {
      const key = keyOf(o)
      const moved = e !== entry || key !== watchKey
      entry = e
      options = o
      watchKey = key
      if (moved && listeners.size > 0) attach()
      update()
    },
    subscribe(listener) {
      listeners.add(listener)
      if (listeners.size === 1) attach()
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0) return
        detach?.()
        detach = undefined
      }
    },
    getCurrentResult: () => (current ??= compute(entry, options)),
    trackResult(result) {
      const source = sources.get(result)
      const out = {} as Result
      for (const k of Object.keys(result)) {
        Object.defineProperty(out, k, {
          enumerable: true,
          get: () => {
            for (const f of READS[k] ?? [k]) tracked.add(f)
            const value = (result as Record<string, unknown>)[k]
            if (!source) return value
            // Read after the render (an event handler, a test): a field no render had read may have
            // changed without a re-render, so a plain snapshot field answers from the entry as it is now.
            const now = source.entry.getSnapshot() as unknown as Record<string, unknown>
            const plain = k in now && (k !== 'data' || source.plainData)
            return now === (source.snap as unknown) || !plain ? value : now[k]
          },
        })
      }
      return out
    },
  }
}
