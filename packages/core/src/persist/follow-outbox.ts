import type { ResourceCache } from '../cache/types.js'
import type { ServiceName } from '../types.js'
import type { DurableOutbox, OutboxEntry } from './types.js'

/** The collection a REST write changes: `/v1/conversations/c_1/reply` → conversations. */
const collectionOf = (e: OutboxEntry): { service: ServiceName; collection: string } | undefined =>
  e.kind === 'rest' ? { service: e.request.service, collection: e.request.path.split('/')[2] ?? '' } : undefined

/**
 * Once the last held write of a collection is settled (applied or refused), its entries are
 * invalidated, so they show the service's truth: what a refused write showed is rolled back,
 * also after a reload, when no caller is left to do it. Returns the unsubscribe.
 */
export function followOutbox(cache: ResourceCache, outbox: DurableOutbox): () => void {
  const settled = ({ entry }: { entry: OutboxEntry }) => {
    const target = collectionOf(entry)
    if (!target?.collection) return
    const same = (e: OutboxEntry) => {
      const c = collectionOf(e)
      return c?.service === target.service && c.collection === target.collection
    }
    if (!outbox.getSnapshot().entries.some(same)) void cache.invalidate(target)
  }
  const offs = [outbox.on('applied', settled), outbox.on('refused', settled)]
  return () => offs.forEach((off) => off())
}
