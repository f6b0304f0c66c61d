import type { Collection, Page } from '../collection.js'
import { createEmitter } from '../events.js'
import type { ServiceName } from '../types.js'
import { INITIAL, reduce, type EntryAction, type EntryState } from './entry-actions.js'
import type { CacheQuery, ListData, ListSnapshot, ResourceEntry, Snapshot, WatchOptions } from './types.js'

/** Entry options with every field set; `refetchInterval` is Infinity when off. */
export type Settings = Required<Omit<WatchOptions, 'refetchInterval'>> & { refetchInterval: number }

export interface EntryContext {
  collection(service: ServiceName, name: string): Collection<unknown>
  defaults: Settings
  online(): boolean
  /** The entry gained its first subscriber (+1) or lost its last (-1). */
  activity(delta: 1 | -1): void
  remove(entry: Entry): void
  revive(entry: Entry): void
  /** The entry's state changed. */
  changed(entry: Entry): void
}

type AnySnapshot = Snapshot<unknown> & Partial<Omit<ListSnapshot<unknown>, keyof Snapshot<unknown>>>

export interface Entry extends ResourceEntry<AnySnapshot> {
  readonly hash: string
  state(): EntryState
  /** The one way an entry's state changes (entry-actions.ts); notifies subscribers when it did. */
  dispatch(action: EntryAction): void
  active(): boolean
  /** Its subscribers now. */
  observers(): number
  settings(): Settings
  isStale(staleTime?: number): boolean
  /** Refetch all pages; `force` cancels a fetch in flight instead of joining it. */
  fetch(force?: boolean): Promise<void>
  /** A call query's function, from its latest caller. */
  setFn(next: CacheQuery['fn']): void
  scheduleGc(): void
  dispose(): void
}

export function createEntry(query: CacheQuery, hash: string, ctx: EntryContext): Entry {
  const emitter = createEmitter<{ change: () => void }>()
  const subs = new Set<WatchOptions>()
  const isList = query.key === undefined && query.id === undefined
  /** A call's function: the latest caller's (a closure over the current props), as TanStack does. */
  let fn = query.fn
  let state = INITIAL
  let run: { ctrl: AbortController; promise: Promise<void> } | undefined
  let snap: AnySnapshot | undefined
  let items: unknown[] = []
  let itemsOf: unknown
  let gcTime: number | undefined
  let gcTimer: ReturnType<typeof setTimeout> | undefined
  let interval: ReturnType<typeof setInterval> | undefined

  // Merged once per (un)subscribe, not per getSnapshot (React calls that on every render).
  let merged = ctx.defaults
  const settings = () => merged
  const isStale = (staleTime = settings().staleTime) => {
    if (state.status !== 'success' || state.invalidated) return true
    // The clock only for data there is: a component rendered with none (Next.js prerenders it,
    // and refuses the clock there) reads none.
    const now = Date.now()
    return now >= state.dataUpdatedAt + staleTime && now >= state.freshUntil
  }

  function build(): AnySnapshot {
    const { status, data, error, fetching, dataUpdatedAt, liveError } = state
    const base = { status, data, error, isFetching: fetching !== false, isStale: isStale(), dataUpdatedAt, liveError }
    if (!isList) return base
    const pages = (data as ListData<unknown> | undefined)?.pages
    // Flatten only when the data changed, so `items` keeps its reference across isFetching flips.
    if (data !== itemsOf) {
      itemsOf = data
      items = pages?.flatMap((p) => p.data) ?? []
    }
    return { ...base, items, hasNextPage: !!pages?.at(-1)?.nextCursor, isFetchingNextPage: fetching === 'next' }
  }

  function dispatch(action: EntryAction): void {
    const next = reduce(state, action)
    if (next === state) return
    state = next
    snap = build()
    emitter.emit('change')
    ctx.changed(entry)
  }

  async function load(next: boolean, signal: AbortSignal): Promise<unknown> {
    if (fn) return fn({ signal })
    const col = ctx.collection(query.service!, query.collection!)
    if (query.id !== undefined) return col.get(query.id, { signal })
    const get = (cursor?: string | null) => col.list(cursor ? { ...query.params, cursor } : query.params, { signal })
    const loaded = (state.data as ListData<unknown> | undefined)?.pages ?? []
    if (next) return get(loaded.at(-1)?.nextCursor)
    // Refetch as many pages as were loaded, following the new cursors (items may have moved).
    const pages = [await get()]
    for (let last = pages[0]; pages.length < loaded.length && last?.nextCursor;)
      pages.push((last = await get(last.nextCursor)))
    return { pages }
  }

  function start(next: boolean, force = false): Promise<void> {
    if (run) {
      if (!force) return run.promise
      run.ctrl.abort()
    }
    const ctrl = new AbortController()
    const promise = load(next, ctrl.signal).then(
      (result) => {
        if (run?.ctrl !== ctrl) return
        run = undefined
        dispatch(
          next ? { type: 'page', page: result as Page<unknown> } : { type: 'success', data: result, at: Date.now() },
        )
      },
      (error: unknown) => {
        // Aborted: the state was already restored; a forced refetch's waiters join the new run.
        if (run?.ctrl !== ctrl) return run?.promise
        run = undefined
        dispatch({ type: 'error', error })
      },
    )
    run = { ctrl, promise }
    dispatch({ type: 'fetch', next })
    return promise
  }

  function abort(): void {
    const r = run
    if (!r) return
    run = undefined
    r.ctrl.abort()
    dispatch({ type: 'cancel' })
  }

  function schedule(): void {
    clearInterval(interval)
    const ms = settings().refetchInterval
    if (subs.size > 0 && ms > 0 && ms < Infinity)
      interval = setInterval(() => {
        if (ctx.online()) void start(false)
      }, ms)
  }

  const entry: Entry = {
    query,
    hash,
    state: () => state,
    dispatch,
    active: () => subs.size > 0,
    observers: () => subs.size,
    settings,
    isStale,
    fetch: (force) => start(false, force),
    getSnapshot() {
      // Staleness is a function of time: refresh the snapshot when it has turned.
      if (!snap || snap.isStale !== isStale()) snap = build()
      return snap
    },
    subscribe(listener, options = {}) {
      const sub = { ...options } // one object per subscription, even for equal options
      const off = emitter.on('change', listener)
      subs.add(sub)
      merged = mergeSettings(ctx.defaults, subs)
      gcTime = Math.max(gcTime ?? 0, options.gcTime ?? ctx.defaults.gcTime)
      clearTimeout(gcTimer)
      ctx.revive(entry)
      if (subs.size === 1) ctx.activity(1)
      schedule()
      if (isStale()) void start(false)
      let done = false
      return () => {
        if (done) return
        done = true
        off()
        subs.delete(sub)
        merged = mergeSettings(ctx.defaults, subs)
        schedule()
        if (subs.size > 0) return
        ctx.activity(-1)
        entry.scheduleGc()
        // Nobody is left to see the answer. A microtask later, so an immediate resubscribe
        // (React StrictMode's effect replay, a component that moves) keeps the request.
        queueMicrotask(() => subs.size === 0 && abort())
      }
    },
    refetch: () => start(false, true),
    fetchNextPage() {
      // During a refetch, wait for it: its last page's cursor is the one to follow.
      if (run) return state.fetching === 'next' ? run.promise : run.promise.then(entry.fetchNextPage)
      if (!isList) return Promise.resolve()
      if (state.data === undefined) return start(false)
      return (state.data as ListData<unknown>).pages.at(-1)?.nextCursor ? start(true) : Promise.resolve()
    },
    setFn(next) {
      if (next) fn = next
    },
    scheduleGc() {
      clearTimeout(gcTimer)
      const ms = gcTime ?? ctx.defaults.gcTime
      if (ms < Infinity) gcTimer = setTimeout(() => subs.size === 0 && ctx.remove(entry), ms)
    },
    dispose() {
      clearTimeout(gcTimer)
      clearInterval(interval)
      abort()
    },
  }
  return entry
}

/** Several subscribers, one entry: the most eager wins (smallest staleTime and interval, any refetch flag). */
export function mergeSettings(d: Settings, subs: Iterable<WatchOptions>): Settings {
  const all = [...subs]
  if (!all.length) return d
  const min = (pick: (o: WatchOptions) => number | undefined, fallback: number) => {
    const values = all.map(pick).filter((v): v is number => v !== undefined)
    return values.length ? Math.min(...values) : fallback
  }
  return {
    staleTime: min((o) => o.staleTime, d.staleTime),
    gcTime: d.gcTime,
    refetchInterval: min(
      (o) => (o.refetchInterval === undefined ? undefined : o.refetchInterval || Infinity),
      d.refetchInterval,
    ),
    refetchOnFocus: all.some((o) => o.refetchOnFocus ?? d.refetchOnFocus),
    refetchOnReconnect: all.some((o) => o.refetchOnReconnect ?? d.refetchOnReconnect),
  }
}
