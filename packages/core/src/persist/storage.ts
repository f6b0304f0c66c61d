import { DEV } from '@tandem/contract/dev'
import { createStore, del, get, getMany, promisifyRequest, set } from 'idb-keyval'
import { TandemError } from '../errors.js'
import type { PersistStorage, StorageMode } from './types.js'

/** Storage in this page's memory: what a Node process, a test or a refused IndexedDB gets. */
export function memoryStorage(): PersistStorage {
  const values = new Map<string, unknown>()
  const updateWith: PersistStorage['updateWith'] & {} = (key, guard, updater) => {
    const next = updater(values.get(key), values.get(guard))
    if (next === undefined) values.delete(key)
    else values.set(key, next)
    return Promise.resolve()
  }
  return {
    get: (key) => Promise.resolve(values.get(key)),
    set: (key, value) => Promise.resolve(void values.set(key, value)),
    del: (key) => Promise.resolve(void values.delete(key)),
    update: (key, updater) => updateWith(key, key, updater),
    updateWith,
    keys: () => Promise.resolve([...values.keys()]),
  }
}

/** IndexedDB through idb-keyval, in a database of Tandem's own (`tandem`, store `persist`). */
export function indexedDbStorage(): PersistStorage {
  const store = createStore('tandem', 'persist')
  // Both reads and the write in one transaction: a logout's delete of `guard` is wholly before or after it.
  // (idb-keyval's `update` would store an `undefined` result; ours deletes the key then, in the same transaction.)
  const updateWith: PersistStorage['updateWith'] & {} = (key, guard, updater) =>
    store('readwrite', (s) => {
      const read = s.get(key)
      const other = s.get(guard)
      return Promise.all([promisifyRequest(read), promisifyRequest(other)]).then(() => {
        const next = updater(read.result, other.result)
        if (next === undefined) s.delete(key)
        else s.put(next, key)
        return promisifyRequest(s.transaction)
      })
    })
  return {
    get: (key) => get(key, store),
    set: (key, value) => set(key, value, store),
    del: (key) => del(key, store),
    update: (key, updater) => updateWith(key, key, updater),
    updateWith,
    // idb-keyval's `keys` walks a cursor (for browsers before getAllKeys): one request here.
    keys: () => store('readonly', (s) => promisifyRequest(s.getAllKeys())),
    getMany: (k) => getMany(k, store),
  }
}

const hasIndexedDb = () => typeof (globalThis as { indexedDB?: unknown }).indexedDB === 'object'

export interface SafeStorage extends Required<PersistStorage> {
  /** Whether the storage lists its keys (`keys`): the outbox then stores each write under its own. */
  readonly listed: boolean
  mode(): StorageMode
  /** Whether `updateWith` is one transaction here (the storage has its own), not a read then an update. */
  atomicWith(): boolean
}

/**
 * The storage, until it fails (full, refused: a private window, a quota): then memory, starting from
 * what this tab last read or wrote, and `onFallback` is told once. A failed first read is an empty one.
 */
export function safeStorage(given: PersistStorage | undefined, onFallback: (error: TandemError) => void): SafeStorage {
  const original: PersistStorage = given ?? (hasIndexedDb() ? indexedDbStorage() : memoryStorage())
  let storage = original
  let mode: StorageMode = given || hasIndexedDb() ? 'storage' : 'memory'
  const memory = memoryStorage()
  /** What this tab last read or wrote per key: memory starts from it. */
  const last = new Map<string, unknown>()
  const seen = <T>(key: string, value: T): T => (last.set(key, value), value)
  // Within the tab, one change at a time: a storage without `update` is then read-modify-written whole.
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn)
    queue = run.catch(() => undefined)
    return run
  }

  async function withFallback<T>(
    op: (s: PersistStorage) => Promise<T>,
    redo: (s: PersistStorage) => Promise<T>,
  ): Promise<T> {
    if (mode === 'memory') return op(storage)
    try {
      return await op(storage)
    } catch (cause) {
      mode = 'memory'
      storage = memory
      for (const [key, value] of last) await memory.set(key, value)
      const name = (cause as { name?: unknown } | null)?.name
      onFallback(
        new TandemError(
          DEV && process.env.NODE_ENV !== 'production'
            ? `Storage ${name === 'QuotaExceededError' ? 'is full' : 'refused a write'}: kept in memory from now on`
            : 'storage_unavailable',
          { code: 'storage_unavailable', cause },
        ),
      )
      return redo(memory)
    }
  }

  return {
    listed: !!original.keys,
    mode: () => mode,
    atomicWith: () => typeof storage.updateWith === 'function',
    get: (key) =>
      serial(() =>
        withFallback(
          (s) => s.get(key).then((v) => seen(key, v)),
          (m) => m.get(key),
        ),
      ),
    set: (key, value) =>
      serial(() =>
        withFallback(
          (s) => s.set(key, value).then(() => void seen(key, value)),
          (m) => m.set(key, value),
        ),
      ),
    keys: () =>
      serial(() =>
        withFallback(
          async (s) => (s.keys ? s.keys() : []),
          (m) => m.keys!(),
        ),
      ),
    getMany: (keys) =>
      serial(() =>
        withFallback(
          (s) =>
            (s.getMany ? s.getMany(keys) : Promise.all(keys.map((k) => s.get(k)))).then((values) =>
              values.map((v, i) => seen(keys[i]!, v)),
            ),
          (m) => Promise.all(keys.map((k) => m.get(k))),
        ),
      ),
    // In memory, a delete (a logout) still reaches the storage: what it holds must not come back.
    del: (key) =>
      serial(() =>
        withFallback(
          (s) =>
            Promise.all([s.del(key), s === original ? undefined : original.del(key).catch(() => undefined)]).then(
              () => void last.delete(key),
            ),
          (m) => m.del(key),
        ),
      ),
    // `last` changes only once the storage has the value: a failed update is redone in memory on the old one.
    update: (key, updater) =>
      serial(() => {
        let next: unknown
        return withFallback(
          async (s) => {
            await change(s, key, (old) => (next = updater(old)))
            seen(key, next)
          },
          (m) => m.update!(key, (old) => seen(key, updater(old))),
        )
      }),
    // Without the storage's own, `guard` is read just before the update: not atomic (atomicWith() says so).
    updateWith: (key, guard, updater) =>
      serial(() => {
        let next: unknown
        return withFallback(
          async (s) => {
            if (s.updateWith) await s.updateWith(key, guard, (old, g) => (next = updater(old, g)))
            else {
              const g = await s.get(guard)
              await change(s, key, (old) => (next = updater(old, g)))
            }
            seen(key, next)
          },
          (m) => m.updateWith!(key, guard, (old, g) => seen(key, updater(old, g))),
        )
      }),
  }
}

/** `compute`'s value written over the stored one (deleted for `undefined`): the storage's own `update`, else a read then a write. */
function change(s: PersistStorage, key: string, compute: (old: unknown) => unknown): Promise<void> {
  if (s.update) return s.update(key, compute)
  return s.get(key).then((old) => {
    const next = compute(old)
    return next === undefined ? s.del(key) : s.set(key, next)
  })
}
