import {
  getCache,
  liveChannelName,
  realtimeRest,
  type Client,
  type DehydratedState,
  type ItemQuery,
  type ListQuery,
} from '@tandem/core'
import { hashQuery } from '@tandem/core/internal'
import { atRequestTime } from './request-time.js'

/** What can be prefetched on a server: lists and items (a call's function cannot travel to the browser). */
export type PrefetchQuery = ListQuery<unknown> | ItemQuery<unknown>

type Live = NonNullable<DehydratedState['live']>[number]

/**
 * Where the channel stands now (the newest message's position), or nothing if it cannot be read
 * (no realtime scope, the service down): that entry's live binding then refetches once.
 */
async function position(client: Client, channel: string): Promise<Live | undefined> {
  try {
    const { epoch, offset } = await realtimeRest(client).history(channel, { limit: 1 })
    return { channel, position: { epoch, offset } }
  } catch {
    return undefined
  }
}

/**
 * Fetches the queries into the client's cache (all at once; never rejects: a query that failed
 * is left out, and the browser fetches it) and returns their entries, the `state` for
 * `<TandemHydrate>`. Only these queries: a streamed boundary does not carry again what the
 * page's other boundaries prefetched with the same request's client.
 *
 * It renders at request time: in a Next.js prerender it waits on `connection()` (the page, or
 * the Suspense boundary around it, is rendered per request), so no user's data lands in a build.
 *
 * First it reads where each collection's channel stands (one request per collection): the state
 * carries those positions, and the browser's live binding resumes from there, so what changed
 * between this fetch and its subscription comes from history, not from a second fetch.
 *
 * @example
 * ```tsx
 * const state = await prefetch(client, listQuery('support/conversations', { limit: 25 }))
 * return <TandemHydrate state={state}><Inbox /></TandemHydrate>
 * ```
 */
export async function prefetch(client: Client, ...queries: PrefetchQuery[]): Promise<DehydratedState> {
  // Before any token is minted or request sent (they read the clock): a prerender stops here.
  await atRequestTime()
  const cache = getCache(client)
  // Before the data: a change between the two is then both in the data and replayed (applied twice, harmlessly).
  const channels = new Set(queries.map(liveChannelName))
  const live = (await Promise.all([...channels].map((channel) => position(client, channel)))).filter(
    (l): l is Live => l !== undefined,
  )
  await Promise.all(queries.map((query) => cache.prefetch(query)))
  const wanted = new Set(queries.map(hashQuery))
  const entries = cache.dehydrate().entries.filter((entry) => wanted.has(hashQuery(entry.query)))
  return live.length ? { entries, live } : { entries }
}
