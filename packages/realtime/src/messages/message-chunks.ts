// A message log's items as a list of chunks (arrays of at most `size`), so that a snapshot can share
// what did not change. A chunk is never changed once made: a change replaces the one chunk it
// touches (the last for an append, the first for a drop from the front) with a new one, and `seal()`
// copies the list of chunks, not the items. An append at a 10,000-message bound then costs about two
// chunks, not 10,000 items. (Not frozen: V8 reads frozen arrays several times slower, and the types
// are read-only.)

export type Chunks<M> = readonly (readonly M[])[]

/** The chunks end to end (a loop: `Array.prototype.flat` takes milliseconds for 10,000 items). */
export function flatten<M>(chunks: Chunks<M>): M[] {
  const all: M[] = []
  for (const c of chunks) for (const m of c) all.push(m)
  return all
}

export interface ChunkList<M> {
  readonly count: number
  first(): M | undefined
  last(): M | undefined
  push(m: M): void
  /** `older` (oldest first) before the first item; they top up the first chunk first. */
  prepend(older: readonly M[]): void
  /** Drops the `n` oldest. */
  dropFront(n: number): void
  clear(): void
  /** The chunks as they are now; the same array until the next change. */
  seal(): Chunks<M>
}

export function createChunkList<M>(size: number): ChunkList<M> {
  let chunks: (readonly M[])[] = []
  let count = 0
  let sealed: Chunks<M> | undefined
  return {
    get count() {
      return count
    },
    first: () => chunks[0]?.[0],
    last: () => chunks.at(-1)?.at(-1),
    push(m) {
      const last = chunks.at(-1)
      if (last && last.length < size) chunks[chunks.length - 1] = [...last, m]
      else chunks.push([m])
      count++
      sealed = undefined
    },
    prepend(older) {
      let end = older.length
      // Top up the first chunk, then whole chunks from the newest of `older` back: only the first is short.
      const head = chunks[0]
      const room = head ? Math.min(size - head.length, end) : 0
      if (room > 0) chunks[0] = [...older.slice(end - room, end), ...head!]
      end -= room
      const before: (readonly M[])[] = []
      for (; end > 0; end -= size) before.push(older.slice(Math.max(0, end - size), end))
      chunks = [...before.reverse(), ...chunks] // chunk references only: at most max / size of them
      count += older.length
      sealed = undefined
    },
    dropFront(n) {
      n = Math.min(n, count)
      count -= n
      let whole = 0
      while (n > 0 && chunks[whole]!.length <= n) n -= chunks[whole++]!.length
      chunks.splice(0, whole)
      if (n > 0) chunks[0] = chunks[0]!.slice(n)
      sealed = undefined
    },
    clear() {
      chunks = []
      count = 0
      sealed = undefined
    },
    seal: () => (sealed ??= chunks.slice()),
  }
}
