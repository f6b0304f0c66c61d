import type { ResourceCache } from '../cache/types.js'
import type { ServiceName } from '../types.js'
import type { DurableOutbox, LogoutSource, OutboxEntry } from './types.js'

/** The collection a REST write changes: `/v1/conversations/c_1/reply` → conversations. */
const collectionOf = (e: OutboxEntry): { service: ServiceName; collection: string } | undefined =>
  e.kind === 'rest' ? { service: e.request.service, collection: e.request.path.split('/')[2] ?? '' } : undefined

/**
 * What the saved cache follows of its outbox. Once the last held write of a collection is settled
 * (applied or refused), its entries are invalidated, so they show the service's truth: what a
 * refused write showed is rolled back, also after a reload, when no caller is left to do it. Once
 * the outbox is logged out (here or in another tab), `loggedOut` is told. Returns the unsubscribe.
 */
export function followOutbox(
  cache: ResourceCache,
  outbox: DurableOutbox,
  loggedOut: (by: LogoutSource) => void,
): () => void {
  const settled = ({ entry }: { entry: OutboxEntry }) => {
    const target = collectionOf(entry)
    if (!target?.collection) return
    const same = (e: OutboxEntry) => {
      const c = collectionOf(e)
      return c?.service === target.service && c.collection === target.collection
    }
    if (!outbox.getSnapshot().entries.some(same)) void cache.invalidate(target)
  }
  let following = true
  // The snapshot, not the event: it says so at once, and also when the outbox was logged out before.
  const logout = () => {
    const by = outbox.getSnapshot().loggedOut
    if (by && following) loggedOut(by)
  }
  const offs = [outbox.on('applied', settled), outbox.on('refused', settled), outbox.subscribe(logout)]
  queueMicrotask(logout)
  return () => {
    following = false
    offs.forEach((off) => off())
  }
}
