'use client'
import { liveChannelName, type DehydratedState, type ListQuery, type ResourceCache } from '@tandem/core'
import { handOver, hashQuery } from '@tandem/core/internal'
import { useTandem } from '@tandem/react'
import { useEffect, useMemo, type ReactNode } from 'react'

export interface TandemHydrateProps {
  /** What `prefetch` of `@tandem/next/server` returned (or a cache's `dehydrate()`). */
  state: DehydratedState | null | undefined
  children?: ReactNode
}

type Entries = DehydratedState['entries']
const NONE: Entries = []

/**
 * The states each cache has taken in: a remount with the same state (back navigation) must not put
 * old data over live updates. Weak: keyed by the app's cache and the server's state objects, neither kept alive by it.
 */
const taken = new WeakMap<ResourceCache, WeakSet<DehydratedState>>()

/**
 * Hands each entry now holding the state's data the position its channel had just before that
 * data was fetched (`prefetch`): the entry's live binding resumes the channel from there, and
 * history brings what changed since, instead of a refetch. Not to newer data kept here instead.
 */
function handOverLive(cache: ResourceCache, entries: Entries, live: DehydratedState['live']) {
  if (!live?.length) return
  const at = new Map(live.map((l) => [l.channel, l.position]))
  for (const { query, dataUpdatedAt } of entries) {
    const position = query.key === undefined ? at.get(liveChannelName(query)) : undefined
    if (position && cache.get(query as ListQuery).getSnapshot().dataUpdatedAt === dataUpdatedAt)
      handOver(cache, query, position)
  }
}

/**
 * Puts in at once the entries nobody watches (the render below reads them: no request), and
 * returns those a mounted component watches: changing them now would update another component
 * during this render, so they go in after the commit (and only if newer, as `hydrate` does).
 */
function hydrateUnwatched(cache: ResourceCache, state: DehydratedState | null | undefined): Entries {
  if (!state?.entries?.length) return NONE
  let seen = taken.get(cache)
  if (!seen) taken.set(cache, (seen = new WeakSet()))
  if (seen.has(state)) return NONE
  seen.add(state)
  const watched = new Set(cache.inspect().flatMap((e) => (e.observers > 0 ? [e.hash] : [])))
  const now: Entries = []
  const later: Entries = []
  for (const entry of state.entries) (watched.has(hashQuery(entry.query)) ? later : now).push(entry)
  if (now.length) cache.hydrate({ entries: now })
  handOverLive(cache, now, state.live)
  return later
}

/**
 * Puts the server's prefetched entries into the provider's cache before its children render, so
 * the hydrating render shows them and sends no request (TanStack Query's `HydrationBoundary`).
 * Each Suspense boundary that streams later can carry its own. Once per `state` object.
 *
 * @example
 * ```tsx
 * // app/inbox/page.tsx, a server component
 * const state = await prefetch(createServerClient(…), listQuery('support/conversations', { limit: 25 }))
 * return <TandemHydrate state={state}><Inbox /></TandemHydrate>
 * ```
 */
export function TandemHydrate({ state, children }: TandemHydrateProps) {
  const { cache } = useTandem()
  const later = useMemo(() => hydrateUnwatched(cache, state), [cache, state])
  useEffect(() => {
    if (!later.length) return
    cache.hydrate({ entries: later })
    handOverLive(cache, later, state?.live)
  }, [cache, later, state])
  return children
}
