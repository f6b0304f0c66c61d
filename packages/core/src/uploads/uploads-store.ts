import { createStore } from '../store.js'
import type { MessageUpload, UploadsSlot, UploadsStore, UploadsSnapshot } from './types.js'

// The client's writes with files, as one snapshot (a new object only when something changed), and
// what cancelling each does. Lives on the client's `uploadsSlot`, made on first use.

/** Frozen: one empty snapshot for every client, which nobody can change. */
const EMPTY: UploadsSnapshot = Object.freeze({ messages: Object.freeze([]) })

export function createUploadsStore(): UploadsStore {
  const store = createStore<UploadsSnapshot>(EMPTY)
  /** What cancelling a write does now, by its key (user-keyed: a Map). */
  const cancels = new Map<string, () => Promise<boolean>>()
  const messages = () => store.getSnapshot().messages
  const put = (next: readonly MessageUpload[]) => store.set(next.length ? { messages: next } : EMPTY)

  return {
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    cancel(key) {
      const cancel = typeof key === 'string' ? cancels.get(key) : undefined
      return cancel ? cancel() : Promise.resolve(false)
    },
    begin(message, cancel) {
      cancels.set(message.key, cancel)
      put([...messages().filter((m) => m.key !== message.key), message])
    },
    update(key, change) {
      const list = messages()
      const i = list.findIndex((m) => m.key === key)
      if (i < 0) return
      const next = change(list[i]!)
      if (next !== list[i]) put(list.map((m, j) => (j === i ? next : m)))
    },
    onCancel(key, cancel) {
      if (cancels.has(key)) cancels.set(key, cancel)
    },
    end(key) {
      cancels.delete(key)
      if (messages().some((m) => m.key === key)) put(messages().filter((m) => m.key !== key))
    },
  }
}

/** The slot's store, made on first use (by `uploads(client)` or the first write with files). */
export const storeOf = (slot: UploadsSlot): UploadsStore => (slot.store ??= createUploadsStore())
