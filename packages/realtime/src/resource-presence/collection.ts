// `collectionPresence(rt, path)`: every resource of a collection someone is on, for a list's rows,
// through the one subscription of the collection's presence channel (not one per row).
import type { PresenceCollection } from '@tandem/contract'
import type { Realtime } from '../realtime.js'
import type { ReadableStore } from '@tandem/core'
import { checkPath } from './path.js'
import { registryOf } from './registry.js'
import type { Activity } from './view.js'

/**
 * Who is on which resource of `path`, by resource id (ids nobody else is on are absent): a new
 * Map only when something changed, and a row's `Activity` object kept while it did not.
 *
 * @example
 * ```ts
 * const rows = collectionPresence(rt, 'support/conversations')
 * rows.subscribe(() => badge(rows.getSnapshot().get(id)?.viewers.length ?? 0))
 * ```
 */
export function collectionPresence(
  rt: Realtime,
  path: PresenceCollection,
): ReadableStore<ReadonlyMap<string, Activity>> {
  checkPath(path)
  return registryOf(rt, path).view
}
