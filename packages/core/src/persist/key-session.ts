import { randomId } from '../random-id.js'
import type { SafeStorage } from './storage.js'
import { isObject } from '@tandem/contract'

// The key's session (docs/persist.md, "Logout"): while the key is signed in, `<key>:session` holds
// the id of the session its pages joined; a logout deletes it before anything else. Every write of
// the saved cache and the outbox looks at it in the same transaction, so a page that missed the
// logout (asleep, frozen, a save already on its way) writes nothing back, and knows it is logged out.

/** What `<key>:session` holds. */
interface SessionRecord {
  v: 1
  id: string
  /** When it began (ms since epoch): for a person reading storage; the id decides. */
  since: number
}

const isRecord = (v: unknown): v is SessionRecord =>
  isObject(v) && v.v === 1 && typeof v.id === 'string' && typeof v.since === 'number'

export interface KeySession {
  /** Resolves once this page has joined the key's session, or begun it. Never rejects. */
  readonly joined: Promise<void>
  /**
   * Writes `updater(old)` to `key` while the stored session is the one this page joined; once it is
   * not (a logout, here or in another tab), storage keeps what it has and this resolves `false`.
   */
  write(key: string, updater: (old: unknown) => unknown): Promise<boolean>
  /** Whether the stored session is still this page's (a read: a page that wakes asks). */
  current(): Promise<boolean>
}

/** Joins the session stored under `sessionKey`, or begins one when there is none (a sign-in). */
export function joinSession(storage: SafeStorage, sessionKey: string): KeySession {
  let id: string | undefined
  const ours = (record: unknown) => isRecord(record) && record.id === id

  async function join(): Promise<void> {
    // A read first: a page that joins writes nothing (a full storage stays readable).
    const found = await storage.get(sessionKey)
    if (isRecord(found)) return void (id = found.id)
    const mine: SessionRecord = { v: 1, id: randomId(), since: Date.now() }
    // Two pages beginning at once: the first stored wins, and the other joins it.
    await storage.updateWith(sessionKey, sessionKey, (old) => {
      const record = isRecord(old) ? old : mine
      id = record.id
      return record
    })
  }
  const joined = join().catch(() => undefined)

  async function write(key: string, updater: (old: unknown) => unknown): Promise<boolean> {
    await joined
    let wrote = false
    await storage.updateWith(key, sessionKey, (old, record) => {
      wrote = ours(record)
      return wrote ? updater(old) : old
    })
    if (!wrote || storage.atomicWith()) return wrote
    // Not one transaction: a logout may have come between the look and the write. Then what the
    // write stored goes again, as the logout's delete would have taken it.
    const record = await storage.get(sessionKey)
    if (ours(record)) return true
    if (record === undefined) await storage.del(key)
    return false
  }

  async function current(): Promise<boolean> {
    await joined
    return ours(await storage.get(sessionKey))
  }

  return { joined, write, current }
}
