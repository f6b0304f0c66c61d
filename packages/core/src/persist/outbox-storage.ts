import { isObject } from '@tandem/contract'
import { recordKeys } from './clear-persisted.js'
import type { KeySession } from './key-session.js'
import type { StoreOp } from './outbox-machine-types.js'
import { readRecords, type OutboxRecord, type ReadOutbox } from './outbox-entries.js'
import type { SafeStorage } from './storage.js'

// The outbox in storage: each held write under a key of its own, `<key>:outbox#<id>` (its record:
// the entry and its place in the order), so a change writes that one record, never the list: n
// held writes cost n records written, not n². Changed in one transaction (another tab may change
// it too), and only while the key's session is this page's. A storage that cannot list its keys
// keeps the whole list under `<key>:outbox`, as before; a list found there is moved to records once.

export interface OutboxStorage {
  read(): Promise<ReadOutbox>
  /**
   * Makes `op` on what is stored now. `ours: false`: the key's session ended (a logout this page
   * did not hear); `found`: the write's record was there before (absent when `live()` said no at
   * the moment of the transaction: nothing was written).
   */
  write(op: StoreOp): Promise<{ ours: boolean; found?: boolean }>
}

const now = () => {
  const p = globalThis.performance
  return p?.timeOrigin ? p.timeOrigin + p.now() : Date.now()
}

/** The elements of a whole stored list that have an id (today's format, and the older one). */
const listOf = (stored: unknown): OutboxRecord['entry'][] =>
  isObject(stored) && stored.v === 1 && Array.isArray(stored.entries)
    ? (stored.entries as unknown[]).filter((e): e is OutboxRecord['entry'] => isObject(e) && typeof e.id === 'string')
    : []

export function outboxStorage(
  storage: SafeStorage,
  session: KeySession,
  /** `<key>:outbox`: the whole list (a storage that cannot list), and the prefix of each write's key. */
  listKey: string,
  /** Whether this outbox may still write (not stopped, not logged out). */
  live: () => boolean,
): OutboxStorage {
  const prefix = `${listKey}#`
  /** The highest `seq` this tab read or gave: the next is after it, whatever the clock says. */
  let top = 0

  /** `change(old)` written under `key` while live (`found` then says whether `change` found the write). */
  async function guarded(key: string, change: (old: unknown) => unknown) {
    let wrote = false
    const ours = await session.write(key, (old) => {
      if (!live()) return old // stopped or logged out since the op was decided: a logout's delete decides
      wrote = true
      return change(old)
    })
    return { ours, wrote }
  }

  /** A whole list (written by an earlier version) as records, in its order, then deleted: once. */
  async function moveList() {
    for (const [seq, entry] of listOf(await storage.get(listKey)).entries())
      if (!entry.id.includes(':')) await guarded(prefix + entry.id, (old) => old ?? { v: 1, seq, entry })
    await guarded(listKey, () => undefined)
  }

  async function read(move = true): Promise<ReadOutbox> {
    if (!storage.listed)
      return readRecords(listOf(await storage.get(listKey)).map((entry, seq) => [entry.id, { v: 1, seq, entry }]))
    const all = await storage.keys()
    if (move && all.includes(listKey)) return moveList().then(() => read(false))
    const keys = recordKeys(all, listKey)
    const values = await storage.getMany(keys)
    for (const r of values) if (isObject(r) && typeof r.seq === 'number' && r.seq > top) top = r.seq
    return readRecords(keys.map((k, i) => [k.slice(prefix.length), values[i]]))
  }

  return {
    read,
    async write(op) {
      const id = op.type === 'put' ? op.entry.id : op.id
      let found = false
      const { ours, wrote } = storage.listed
        ? await guarded(prefix + id, (old) => {
            found = old !== undefined
            if (op.type === 'remove') return undefined
            if (!op.add) return old && { ...old, entry: op.entry }
            // Its place: now, in the transaction (the clock's fraction of a ms too: two tabs rarely tie), and
            // after every write this tab stored or read (a tab's writes keep their order, seen ones come first).
            return old ?? { v: 1, seq: (top = Math.max(now(), top + 1)), entry: op.entry }
          })
        : await guarded(listKey, (old) => {
            const list = listOf(old)
            const at = list.findIndex((e) => e.id === id)
            found = at >= 0
            if (op.type === 'remove') {
              if (found) list.splice(at, 1)
            } else if (found && !op.add) list[at] = op.entry
            else if (!found && op.add) list.push(op.entry)
            return { v: 1, entries: list }
          })
      return wrote ? { ours, found } : { ours }
    },
  }
}
