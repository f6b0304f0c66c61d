import type { KeySession } from './key-session.js'
import type { StoreOp } from './outbox-machine-types.js'
import type { OutboxEntry } from './types.js'
import { readStored, toStored, type ReadOutbox } from './outbox-entries.js'
import type { SafeStorage } from './storage.js'

// The outbox's stored list (`<key>:outbox`): read whole, changed one op at a time in one
// transaction (another tab may change it too), and only while the key's session is this page's.

export interface OutboxStorage {
  read(): Promise<ReadOutbox>
  /**
   * Makes `op` on what is stored now. `ours: false`: the key's session ended (a logout this page
   * did not hear); `read`: the list as written (what the read found that must never be sent, left
   * out), absent when `live()` said no at the moment of the transaction.
   */
  change(op: StoreOp): Promise<{ ours: boolean; read?: ReadOutbox }>
}

export function outboxStorage(
  storage: SafeStorage,
  session: KeySession,
  key: string,
  /** Whether this outbox may still write (not stopped, not logged out). */
  live: () => boolean,
): OutboxStorage {
  return {
    read: async () => readStored(await storage.get(key)),
    async change(op) {
      let read: ReadOutbox | undefined
      const ours = await session.write(key, (old) => {
        // Stopped or logged out since the op was decided: what is stored stays (a logout's delete decides).
        if (!live()) return old
        const found = readStored(old)
        read = { ...found, entries: applyOp(found.entries, op) }
        return toStored(read.entries)
      })
      return read ? { ours, read } : { ours }
    },
  }
}

/** `op` made on the stored entries (a pure change: the store carries it out in one transaction). */
export function applyOp(entries: OutboxEntry[], op: StoreOp): OutboxEntry[] {
  switch (op.type) {
    case 'add':
      return entries.some((e) => e.id === op.entry.id) ? entries : [...entries, op.entry]
    case 'drop':
      return entries.filter((e) => e.id !== op.id)
    case 'failed':
      return entries.map((e) => (e.id === op.id ? { ...e, attempts: op.attempts, lastError: op.lastError } : e))
    case 'purge':
      return entries
  }
}
