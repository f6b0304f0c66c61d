// A fixed-capacity ring buffer: pushing is O(1) whatever the capacity (no array copy per event);
// reading it in order is O(n) and happens only when a snapshot is built.

export interface Ring<T> {
  /** Adds `item` as the newest; returns the oldest item it pushed out, if the ring was full. */
  push(item: T): T | undefined
  /** Newest first: a new array each call. */
  newestFirst(): T[]
  readonly size: number
  clear(): void
}

export function createRing<T>(capacity: number): Ring<T> {
  if (!(Number.isInteger(capacity) && capacity > 0)) throw new RangeError('a ring holds at least one item')
  const slots: (T | undefined)[] = new Array<T | undefined>(capacity)
  /** Where the next item goes. */
  let next = 0
  let size = 0
  return {
    push(item) {
      const out = size === capacity ? slots[next] : undefined
      slots[next] = item
      next = (next + 1) % capacity
      if (size < capacity) size++
      return out
    },
    newestFirst() {
      const out = new Array<T>(size)
      for (let i = 0; i < size; i++) out[i] = slots[(next - 1 - i + capacity) % capacity] as T
      return out
    },
    get size() {
      return size
    },
    clear() {
      slots.fill(undefined)
      next = 0
      size = 0
    },
  }
}
