import { isObject } from '@tandem/contract'
import { recordKeys } from './clear-persisted.js'
import type { KeySession } from './key-session.js'
import type { StoreOp } from './outbox-machine-types.js'
import { readRecords, type OutboxRecord, type ReadOutbox } from './outbox-entries.js'
import type { SafeStorage } from './storage.js'

// The outbox in storage: each held write under a key of its own, `<key>:outbox#<id>` (its record:
// the entry and its place in the order), so a change writes that one record, never the list: n
// held writes cost n records written, not n². Changed in one transaction (another tab may change
// it too), and only while the key's session is this page's. A whole list stored by an earlier
// version under `<key>:outbox` is moved to records once, in its order.

export interface OutboxStorage {
  read(): Promise<ReadOutbox>
  /**
   * Makes `op` on what is stored now. `ours: false`: the key's session ended (a logout this page
   * did not hear); `found`: the write's record was there before (absent when `live()` said no at
   * the moment of the transaction: nothing was written).
   */
  write(op: StoreOp): Promise<{ ours: boolean; found?: boolean }>
}

export function outboxStorage(
  storage: SafeStorage,
  session: KeySession,
  /** `<key>:outbox`: an earlier version's whole list, and the prefix of each write's key. */
  listKey: string,
  /** Whether this outbox may still write (not stopped, not logged out). */
  live: () => boolean,
): OutboxStorage {
  const prefix = `${listKey}#`
  /** The highest `seq` this tab read or gave: the next is after it, whatever the clock says. */
  let top = 0

  /** `op` in one transaction under the write's key, while live (`found`: its record was there). */
  async function write(op: StoreOp, seq?: number) {
    let found: boolean | undefined
    const ours = await session.write(prefix + (op.type === 'put' ? op.entry.id : op.id), (old) => {
      if (!live()) return old // stopped or logged out since the op was decided: a logout's delete decides
      found = old !== undefined
      if (op.type === 'remove') return undefined
      if (!op.add) return old && { ...old, entry: op.entry }
      // Its place: after every write this tab stored or read (a tab's writes keep their order), else
      // now, to the microsecond: two tabs storing within one millisecond keep the order they stored in
      // (with Date.now() they tied, and the id decided: a flake in the two-tab test beside CPU hogs).
      const now = performance.timeOrigin + performance.now()
      return old ?? { v: 1, seq: seq ?? (top = Math.max(now, top + 1)), entry: op.entry }
    })
    return { ours, found }
  }

  async function read(move = true): Promise<ReadOutbox> {
    const all = await storage.keys()
    if (move && all.includes(listKey)) {
      // An earlier version's whole list: each element with an id a record, in its order (before any
      // record), then the list goes: once.
      const list = (await storage.get(listKey)) as { entries?: OutboxRecord['entry'][] } | undefined
      for (const [seq, entry] of (Array.isArray(list?.entries) ? list.entries : []).entries())
        if (isObject(entry) && typeof entry.id === 'string' && !entry.id.includes(':'))
          await write({ type: 'put', entry, add: true }, seq)
      await session.write(listKey, (old) => (live() ? undefined : old))
      return read(false)
    }
    const keys = recordKeys(all, listKey)
    const values = await storage.getMany(keys)
    for (const r of values) if (isObject(r) && typeof r.seq === 'number' && r.seq > top) top = r.seq
    return readRecords(keys.map((k, i) => [k.slice(prefix.length), values[i]]))
  }

  return { read, write }
}
