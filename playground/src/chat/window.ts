// Which of the messages held are in the DOM: a window that follows the newest, or is held where the
// reader paged back to. Pure, so the list's render decides nothing else (and a test can read it).
// It reads the log's chunks (useMessages' `chunks`), never the whole list: a window costs the
// chunks' count plus its own rows, however many messages are held.

/** Rows in the DOM: `size` while following, growing by `page` as the reader pages back, at most `max`. */
export const WINDOW = { size: 150, page: 100, max: 400 } as const

export interface ChatWindow {
  /** The last message in the window while held (undefined: follow the newest). */
  pinned: string | undefined
  /** Rows shown, from `WINDOW.size` to `WINDOW.max`. */
  size: number
}

export const FOLLOW: ChatWindow = { pinned: undefined, size: WINDOW.size }

type Msg = { messageId: string }
export type Chunks<M> = readonly (readonly M[])[]

/** A run of the window's rows: one of the log's chunks, or the part of it the window holds. */
export interface Part<M> {
  /** The chunk's first message's id: it stays as the chunk grows, so the run keeps its component. */
  key: string
  messages: readonly M[]
}

export interface WindowOf<M> {
  /** The rows, oldest first; whole chunks (so a run's props stay equal while it does not change). */
  parts: Part<M>[]
  start: number
  end: number
  size: number
  /** Messages held after the window (newer than what is shown). */
  after: number
}

interface Index<M> {
  chunks: Chunks<M>
  /** Each chunk's first position in the whole list. */
  starts: number[]
  count: number
}

const index = <M>(chunks: Chunks<M>): Index<M> => {
  const starts: number[] = []
  let count = 0
  for (const c of chunks) {
    starts.push(count)
    count += c.length
  }
  return { chunks, starts, count }
}

/** The chunk that holds position `i`. */
const chunkAt = <M>({ starts }: Index<M>, i: number) => {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid]! <= i) lo = mid
    else hi = mid - 1
  }
  return lo
}

const at = <M>(ix: Index<M>, i: number): M => {
  const k = chunkAt(ix, i)
  return ix.chunks[k]![i - ix.starts[k]!]!
}

function windowIn<M extends Msg>(ix: Index<M>, view: ChatWindow): WindowOf<M> {
  let end = ix.count
  // From the newest end: the pinned message is near it. Gone (pushed out of the log): follow.
  if (view.pinned !== undefined)
    search: for (let k = ix.chunks.length - 1; k >= 0; k--)
      for (let j = ix.chunks[k]!.length - 1; j >= 0; j--)
        if (ix.chunks[k]![j]!.messageId === view.pinned) {
          end = ix.starts[k]! + j + 1
          break search
        }
  const size = Math.min(Math.max(1, view.size), WINDOW.max)
  let start = Math.max(0, end - size)
  // Whole chunks: back to the start of the chunk `start` falls in, or on to the next one where that
  // would pass `max`. A sliding window then drops or adds a chunk at a time, never re-cuts one.
  if (start > 0) {
    const k = chunkAt(ix, start)
    start = end - ix.starts[k]! <= WINDOW.max ? ix.starts[k]! : Math.min(end, ix.starts[k + 1] ?? end)
  }
  const parts: Part<M>[] = []
  for (let k = start < end ? chunkAt(ix, start) : ix.chunks.length; k < ix.chunks.length; k++) {
    const c = ix.chunks[k]!
    const from = ix.starts[k]!
    if (from >= end) break
    const whole = from >= start && from + c.length <= end
    parts.push({
      key: c[0]!.messageId,
      messages: whole ? c : c.slice(Math.max(0, start - from), Math.min(c.length, end - from)),
    })
  }
  return { parts, start, end, size, after: ix.count - end }
}

export const windowOf = <M extends Msg>(chunks: Chunks<M>, view: ChatWindow): WindowOf<M> =>
  windowIn(index(chunks), view)

const pinAt = <M extends Msg>(ix: Index<M>, end: number, size: number): ChatWindow =>
  end >= ix.count
    ? { pinned: ix.count > 0 ? at(ix, ix.count - 1).messageId : undefined, size }
    : { pinned: at(ix, end - 1).messageId, size }

/**
 * One page further back. The window grows up to `max`, then slides: the newest rows leave the DOM
 * (the "newer messages" button brings the reader back). With nothing older held (`start` 0), it
 * makes room for the page the caller reads from history.
 */
export function pageUp<M extends Msg>(chunks: Chunks<M>, view: ChatWindow): ChatWindow {
  const ix = index(chunks)
  const w = windowIn(ix, view)
  if (w.size < WINDOW.max) return pinAt(ix, w.end, Math.min(WINDOW.max, w.size + WINDOW.page))
  const end = w.start > 0 ? Math.max(w.size, w.end - WINDOW.page) : Math.max(1, w.end - WINDOW.page)
  return pinAt(ix, end, w.size)
}

/** One page further forward, for a reader who reached the bottom of a held window; the newest: follow. */
export function pageDown<M extends Msg>(chunks: Chunks<M>, view: ChatWindow): ChatWindow {
  const ix = index(chunks)
  const w = windowIn(ix, view)
  const end = Math.min(ix.count, w.end + WINDOW.page)
  return end >= ix.count ? FOLLOW : pinAt(ix, end, w.size)
}
