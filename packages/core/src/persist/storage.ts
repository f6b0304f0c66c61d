import { DEV } from '@tandem/contract/dev'
import { createStore, promisifyRequest } from 'idb-keyval'
import { TandemError } from '../errors.js'
import type { PersistStorage, StorageMode } from './types.js'

type UpdateWith = PersistStorage['updateWith'] & {}

/** A storage from its one transaction (`updateWith`), its read of many keys and its list of keys. */
const storageOf = (
  updateWith: UpdateWith,
  getMany: (keys: string[]) => Promise<unknown[]>,
  keys: () => Promise<unknown[]>,
): PersistStorage => ({
  get: (key) => getMany([key]).then((values) => values[0]),
  getMany,
  set: (key, value) => updateWith(key, key, () => value),
  del: (key) => updateWith(key, key, () => undefined),
  update: (key, updater) => updateWith(key, key, updater),
  updateWith,
  keys,
})

/** Storage in this page's memory: what a Node process, a test or a refused IndexedDB gets. */
export function memoryStorage(): PersistStorage {
  const values = new Map<string, unknown>()
  return storageOf(
    (key, guard, updater) => {
      const next = updater(values.get(key), values.get(guard))
      if (next === undefined) values.delete(key)
      else values.set(key, next)
      return Promise.resolve()
    },
    (keys) => Promise.resolve(keys.map((k) => values.get(k))),
    () => Promise.resolve([...values.keys()]),
  )
}

/**
 * IndexedDB in a database of Tandem's own (`tandem`, store `persist`), opened by idb-keyval: one
 * read-only transaction per read (of one key or many), one read-write transaction per change.
 */
export function indexedDbStorage(): PersistStorage {
  const store = createStore('tandem', 'persist')
  return storageOf(
    // Both reads and the write in one transaction: a logout's delete of `guard` is wholly before or after it.
    (key, guard, updater) =>
      store('readwrite', (s) => {
        const read = s.get(key)
        const other = s.get(guard)
        return Promise.all([promisifyRequest(read), promisifyRequest(other)]).then(() => {
          const next = updater(read.result, other.result)
          if (next === undefined) s.delete(key)
          else s.put(next, key)
          return promisifyRequest(s.transaction)
        })
      }),
    (keys) => store('readonly', (s) => Promise.all(keys.map((k) => promisifyRequest(s.get(k))))),
    // One request (idb-keyval's `keys` walks a cursor, for browsers before getAllKeys).
    () => store('readonly', (s) => promisifyRequest(s.getAllKeys())),
  )
}

const hasIndexedDb = () => typeof (globalThis as { indexedDB?: unknown }).indexedDB === 'object'

/** What the saved cache and the outbox use of a storage (each op in turn, in memory once it fails). */
export interface SafeStorage extends Required<Pick<PersistStorage, 'get' | 'del' | 'updateWith' | 'keys' | 'getMany'>> {
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

  /** `op` on the storage, in turn; once it fails, on memory (from then on, and this op again). */
  function call<T>(op: (s: PersistStorage) => Promise<T>): Promise<T> {
    const run = queue.then(async () => {
      if (mode === 'memory') return op(storage)
      try {
        return await op(storage)
      } catch (cause) {
        mode = 'memory'
        storage = memory
        for (const [key, value] of last) await memory.set(key, value)
        onFallback(
          new TandemError(
            DEV && process.env.NODE_ENV !== 'production'
              ? `Storage ${(cause as { name?: unknown } | null)?.name === 'QuotaExceededError' ? 'is full' : 'refused a write'}: kept in memory from now on`
              : 'storage_unavailable',
            { code: 'storage_unavailable', cause },
          ),
        )
        return op(memory)
      }
    })
    queue = run.catch(() => undefined)
    return run
  }

  return {
    mode: () => mode,
    atomicWith: () => typeof storage.updateWith === 'function',
    get: (key) => call((s) => s.get(key).then((v) => seen(key, v))),
    // A storage that cannot list its keys holds no held writes (durableOutbox refuses it).
    keys: () => call(async (s) => (s.keys ? s.keys() : [])),
    getMany: (keys) =>
      call((s) =>
        (s.getMany ? s.getMany(keys) : Promise.all(keys.map((k) => s.get(k)))).then((values) =>
          values.map((v, i) => seen(keys[i]!, v)),
        ),
      ),
    // In memory, a delete (a logout) still reaches the storage: what it holds must not come back.
    del: (key) =>
      call((s) =>
        Promise.all([s.del(key), s === original ? undefined : original.del(key).catch(() => undefined)]).then(
          () => void last.delete(key),
        ),
      ),
    // Without the storage's own, `guard` is read just before the update: not atomic (atomicWith() says so).
    updateWith: (key, guard, updater) =>
      call(async (s) => {
        let next: unknown
        const compute = (old: unknown, g: unknown) => (next = updater(old, g))
        if (s.updateWith) await s.updateWith(key, guard, compute)
        else {
          // The storage's own `update`, else a read then a write (deleted for `undefined`).
          const g = await s.get(guard)
          if (s.update) await s.update(key, (old) => compute(old, g))
          else {
            const value = compute(await s.get(key), g)
            await (value === undefined ? s.del(key) : s.set(key, value))
          }
        }
        seen(key, next)
      }),
  }
}
