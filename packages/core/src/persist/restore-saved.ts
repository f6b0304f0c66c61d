import { isObject } from '@tandem/contract'
import { hashQuery } from '../cache/key.js'
import type { DehydratedState, HydrateResult } from '../cache/types.js'
import type { KeySession } from './key-session.js'
import { splitSaved, whyNotSaved, type SavedEntry } from './saved-entries.js'
import type { SafeStorage } from './storage.js'
import type { RestoreProblem, RestoreReason, RestoreResult } from './types.js'

// The saved cache as stored under `<key>:cache`, and its restore (docs/persist.md, "The saved
// cache"): storage is not trusted, so the blob and then each entry are checked before the cache
// takes any; one entry of the wrong shape is left out alone, and the blob is written again without it.

/** What is saved under `<key>:cache`. `v` changes when this shape does: another one is discarded. */
export interface Saved {
  v: 1
  buster: string
  savedAt: number
  state: DehydratedState
}

export const isSaved = (v: unknown): v is Saved =>
  isObject(v) &&
  v.v === 1 &&
  typeof v.buster === 'string' &&
  typeof v.savedAt === 'number' &&
  isObject(v.state) &&
  Array.isArray(v.state.entries)

const done = (entries: number, reason: RestoreReason, problems: RestoreProblem[] = []): RestoreResult => ({
  entries,
  reason,
  dropped: problems.length,
  problems,
})

/**
 * Reads the saved cache (`key`: `<key>:cache`) into the client's cache with `land` (stale at once:
 * what watches the entries revalidates); a blob that cannot be restored is deleted.
 */
export async function restoreSaved(
  storage: SafeStorage,
  session: KeySession,
  key: string,
  buster: string,
  maxAgeMs: number,
  now: () => number,
  land: (entries: SavedEntry[]) => HydrateResult,
): Promise<RestoreResult> {
  const saved = await storage.get(key)
  if (saved === undefined) return done(0, 'empty')
  if (!isSaved(saved)) return (await storage.del(key), done(0, 'unreadable'))
  if (saved.buster !== buster) return (await storage.del(key), done(0, 'busted'))
  const at = now()
  const oldest = at - maxAgeMs
  if (saved.savedAt < oldest) return (await storage.del(key), done(0, 'expired'))
  // Entry by entry: one of the wrong shape is left out on its own, the others restore.
  const { fit, problems } = splitSaved(saved.state.entries, at)
  const landed = land(fit.filter((e) => e.dataUpdatedAt >= oldest))
  for (const { query, why } of landed.refused) problems.push({ key: hashQuery(query), why })
  // Written again without its entries of the wrong shape (atomically: another tab may be saving).
  if (problems.length)
    await session.write(key, (old) =>
      isSaved(old)
        ? {
            ...old,
            state: { ...old.state, entries: old.state.entries.filter((e) => whyNotSaved(e, at) === undefined) },
          }
        : old,
    )
  return done(landed.entries, landed.entries ? 'restored' : problems.length ? 'unreadable' : 'expired', problems)
}
