import type { OutboxEntry, PersistStorage } from '../../entries/persist.js'

// What a durable outbox keeps in storage, as the tests look at it: each held write under
// `<key>:outbox#<id>` (a storage that lists its keys), and a storage that journals what is written.

/** The keys of the held writes of `key`, sorted. */
export async function heldKeys(storage: PersistStorage, key: string): Promise<string[]> {
  const all = (await storage.keys!()) as string[]
  return all.filter((k) => k.startsWith(`${key}:outbox#`)).sort()
}

/** One held write's record, as the outbox stores it (tests write them to storage as a page would have). */
export const record = (seq: number, entry: unknown) => ({ v: 1, seq, entry })

/** Every write that reached storage: the key, and its value's JSON bytes (0: deleted). */
export function journaled(raw: PersistStorage) {
  const writes: { key: string; bytes: number }[] = []
  const note = (key: string, value: unknown) => {
    writes.push({ key, bytes: value === undefined ? 0 : JSON.stringify(value).length })
    return value
  }
  const storage: PersistStorage = {
    ...raw,
    set: (key, value) => raw.set(key, note(key, value)),
    update: (key, updater) => raw.update!(key, (old) => note(key, updater(old))),
    updateWith: (key, guard, updater) => raw.updateWith!(key, guard, (old, g) => note(key, updater(old, g))),
  }
  return { storage, writes }
}

/** A reply held in an outbox, as it is stored (the contract's write, on conversation `c`). */
export const reply = (id: string, c = 'cnv_1', text = id): OutboxEntry => ({
  id,
  lane: `support /v1/conversations/${c}`,
  kind: 'rest',
  idempotencyKey: `key-${id}`,
  createdAt: 1,
  attempts: 0,
  bytes: 20,
  request: { service: 'support', method: 'POST', path: `/v1/conversations/${c}/reply`, body: { text } },
})
