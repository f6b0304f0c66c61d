import { LIST_RULES, hasFields, itemFields } from '@tandem/contract'
import { LEASE_RELEASE_MS, LIVE_REFETCH_MS } from '../defaults.js'
import { createPool, type Pool } from '../pool.js'
import type { Unsubscribe } from '../types.js'
import { TandemError } from '../errors.js'
import { asTandemError } from '../as-tandem-error.js'
import { handed } from './handover.js'
import { hashQuery } from './key.js'
import { placeItem } from './live-list.js'
import type { CacheEvent, CacheQuery, ItemQuery, ListQuery, ResourceCache } from './types.js'

// The realtime side as the cache needs it, by shape: a `createRealtime(…)` connection fits, and
// core (and @tandem/react's main entry) need not import @tandem/realtime to use one.

/** A channel's message, as far as live lists read it. */
export interface LiveMessage {
  event: string
  data: unknown
}

/** A state change, as far as live lists read it: a channel's, or the connection's. */
export interface LiveState {
  current: string
  error?: Error
  /** The connection's: why it is not connected. */
  lastError?: Error
}

export interface LiveChannel {
  readonly state: string
  /** The last delivered position: where a subscription resumes from. */
  readonly position?: { epoch: string; offset: number } | undefined
  subscribe: (listener: (message: LiveMessage) => void) => Unsubscribe
  on: {
    (event: 'state', callback: (change: LiveState) => void): Unsubscribe
    (event: 'discontinuity', callback: () => void): Unsubscribe
  }
}

/** Where live changes come from: a realtime connection (`createRealtime` from @tandem/realtime). */
export interface LiveSource {
  /** `since`: where a channel not made yet starts (the position handed over with hydrated data). */
  channel: (name: string, since?: { epoch: string; offset: number }) => LiveChannel
  /** The connection's state, where the source has one: a failed connection is every live list's error. */
  readonly state?: string
  readonly lastError?: Error
  on?: (event: 'state', callback: (change: LiveState) => void) => Unsubscribe
}

/** Where a collection's changes are published: `<service>:<collection>` (docs/protocol.md, "Live collections"). */
export const liveChannelName = (q: { service: string; collection: string }): string => `${q.service}:${q.collection}`

const EVENTS = new Set(['created', 'updated', 'deleted'])
/** The bindings per (connection, cache): WeakMaps keyed by the app's objects, which a binding table must not keep alive. */
const pools = new WeakMap<LiveSource, WeakMap<ResourceCache, Pool>>()
/** The failures already warned about: once each, however many lists share them (weak: an error is not kept for it). */
const warned = new WeakSet<Error>()

/** A live list that cannot be live is not a silent one: one console warning per failure. */
function warnOnce(error: Error, channel: string) {
  if (warned.has(error)) return
  warned.add(error)
  globalThis.console?.warn(`[tandem] live list on ${channel} is not live: ${error.message}`)
}

/**
 * Keeps a cached list (or item) equal to what the service would answer, from its collection's
 * channel. Each event is placed by the collection's order and filters (LIST_RULES): an item is
 * patched, moved, inserted or removed without a request; where only the service can tell (a
 * free-text `query`), one refetch covers every event of a short window. A `discontinuity`
 * (messages lost, e.g. a reconnect that could not resume) refetches it once. One binding per (client, cache, query)
 * however many callers, released a lease delay after the last one (StrictMode-safe).
 *
 * @example
 * ```ts
 * const realtime = createRealtime({ client })
 * const unbind = bindLiveResources(realtime, client.cache, { service: 'support', collection: 'conversations' })
 * ```
 */
export function bindLiveResources(rt: LiveSource, cache: ResourceCache, query: CacheQuery): Unsubscribe {
  if (query.key !== undefined) return () => {} // a call has no collection channel
  let byCache = pools.get(rt)
  if (!byCache) pools.set(rt, (byCache = new WeakMap()))
  let pool = byCache.get(cache)
  if (!pool) byCache.set(cache, (pool = createPool(LEASE_RELEASE_MS)))
  return pool.acquire(hashQuery(query), () => bind(rt, cache, query))
}

function bind(rt: LiveSource, cache: ResourceCache, query: ListQuery<unknown> | ItemQuery<unknown>): Unsubscribe {
  const { service, collection } = query
  const name = liveChannelName(query)
  const since = handed.get(cache)?.get(hashQuery(query))
  const channel = rt.channel(name, since)
  const entry = cache.get(query as ListQuery)
  const rule = LIST_RULES[`${service}/${collection}`]
  /** What a pushed item must be (the contract's line of the collection's item; any object without one). */
  const itemLine = itemFields(`${service}/${collection}`) ?? ''
  let held: CacheEvent[] | undefined
  // Made from the position read just before this data was fetched (the same object): history
  // brings what the fetch missed, or a `discontinuity` says it cannot, so no catch-up refetch.
  let synced = channel.state === 'subscribed' || (!!since && channel.position === since)

  /** A source's failure that is not a TandemError, as one (the same one each time it is reported). */
  let wrapped: { from: Error; to: TandemError } | undefined
  /** Says why the entry is not live (or that it is again): the channel's failure first, then the connection's. */
  const setLive = (error: Error | undefined) => {
    if (!error) return cache.setLiveError(query, null)
    warnOnce(error, name)
    if (wrapped?.from !== error) wrapped = { from: error, to: asTandemError(error, 'failed') }
    cache.setLiveError(query, wrapped.to)
  }
  let refetchTimer: ReturnType<typeof setTimeout> | undefined

  /** One refetch for any number of events in a short window (the answer covers them all). */
  const refetchSoon = () => {
    refetchTimer ??= setTimeout(() => {
      refetchTimer = undefined
      void entry.refetch()
    }, LIVE_REFETCH_MS)
  }

  const apply = (e: CacheEvent) => {
    if (query.id !== undefined) return cache.applyEvent({ service, collection, id: query.id }, e)
    const data = entry.getSnapshot().data
    if (data === undefined) return // the first answer is on its way
    if (!rule) {
      // No stated order or filters: patch what is there, ask the service about anything new.
      return e.type === 'created' ? refetchSoon() : cache.applyEvent({ service, collection, params: query.params }, e)
    }
    if (e.type === 'deleted') return cache.applyEvent({ service, collection, params: query.params }, e)
    const placed = placeItem(data, e.item, e.type === 'created', query.params, rule)
    if (placed === 'refetch') return refetchSoon()
    if (placed !== data) cache.setData(query as ListQuery, placed)
  }

  const onMessage = (m: LiveMessage) => {
    const data = m.data as { item?: { id?: unknown }; id?: unknown } | null
    const id = m.event === 'deleted' ? data?.id : data?.item?.id
    if (!EVENTS.has(m.event) || typeof id !== 'string') return
    // An item that is not the contract's is never placed in the cache: the service is asked instead.
    if (m.event !== 'deleted' && !hasFields(data?.item, itemLine)) return refetchSoon()
    const e = (m.event === 'deleted' ? { type: 'deleted', id } : { type: m.event, item: data?.item }) as CacheEvent
    apply(e)
    if (!entry.getSnapshot().isFetching) return
    // The answer in flight may predate this event: apply it again once that answer is in.
    if (held) return void held.push(e)
    held = [e]
    const replay = () => {
      const events = held ?? []
      held = undefined
      events.forEach(apply)
    }
    cache.fetch(query as ListQuery, { staleTime: 0 }).then(replay, replay) // joins the fetch in flight
  }

  // Listeners first: subscribing may connect, and a connection that cannot work fails at once.
  const offs = [
    channel.on('state', ({ current, error }) => {
      if (current === 'failed') return setLive(error ?? new TandemError(`Channel ${name} failed`, { code: 'failed' }))
      if (current === 'subscribed') setLive(undefined)
      if (current !== 'subscribed' || synced) return
      synced = true
      // What changed between our fetch and the subscription was sent to nobody: fetch again, once.
      const s = entry.getSnapshot()
      if (s.status !== 'pending' || s.isFetching) void entry.refetch()
    }),
    channel.on('discontinuity', () => void entry.refetch()),
    rt.on?.('state', ({ current, error, lastError }) => {
      if (current === 'failed') setLive(error ?? lastError ?? new TandemError('Realtime failed', { code: 'failed' }))
      else if (current === 'connected' && channel.state !== 'failed') setLive(undefined)
    }) ?? (() => {}),
    () => clearTimeout(refetchTimer),
    channel.subscribe(onMessage),
  ]
  if (rt.state === 'failed') setLive(rt.lastError ?? new TandemError('Realtime failed', { code: 'failed' }))
  return () => offs.forEach((off) => off())
}
