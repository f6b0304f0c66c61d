// Which of the messages held are in the DOM: a window that follows the newest, or is held where the
// reader paged back to. Pure, so the list's render decides nothing else (and a test can read it).

/** Rows in the DOM: `size` while following, growing by `page` as the reader pages back, at most `max`. */
export const WINDOW = { size: 150, page: 100, max: 400 } as const

export interface ChatWindow {
  /** The last message in the window while held (undefined: follow the newest). */
  pinned: string | undefined
  /** Rows shown, from `WINDOW.size` to `WINDOW.max`. */
  size: number
}

export const FOLLOW: ChatWindow = { pinned: undefined, size: WINDOW.size }

export interface WindowOf<M> {
  messages: readonly M[]
  start: number
  end: number
  size: number
  /** Messages held after the window (newer than what is shown). */
  after: number
}

type Msg = { messageId: string }

export function windowOf<M extends Msg>(all: readonly M[], view: ChatWindow): WindowOf<M> {
  let end = all.length
  // From the newest end: the pinned message is near it. Gone (pushed out of the log): follow.
  if (view.pinned !== undefined)
    for (let i = all.length - 1; i >= 0; i--)
      if (all[i]!.messageId === view.pinned) {
        end = i + 1
        break
      }
  const size = Math.min(Math.max(1, view.size), WINDOW.max)
  const start = Math.max(0, end - size)
  return { messages: all.slice(start, end), start, end, size, after: all.length - end }
}

const pinAt = <M extends Msg>(all: readonly M[], end: number, size: number): ChatWindow =>
  end >= all.length ? { pinned: all[all.length - 1]?.messageId, size } : { pinned: all[end - 1]!.messageId, size }

/**
 * One page further back. The window grows up to `max`, then slides: the newest rows leave the DOM
 * (the "newer messages" button brings the reader back). With nothing older held (`start` 0), it
 * makes room for the page the caller reads from history.
 */
export function pageUp<M extends Msg>(all: readonly M[], view: ChatWindow): ChatWindow {
  const w = windowOf(all, view)
  if (w.size < WINDOW.max) return pinAt(all, w.end, Math.min(WINDOW.max, w.size + WINDOW.page))
  const end = w.start > 0 ? Math.max(w.size, w.end - WINDOW.page) : Math.max(1, w.end - WINDOW.page)
  return pinAt(all, end, w.size)
}

/** One page further forward, for a reader who reached the bottom of a held window; the newest: follow. */
export function pageDown<M extends Msg>(all: readonly M[], view: ChatWindow): ChatWindow {
  const w = windowOf(all, view)
  const end = Math.min(all.length, w.end + WINDOW.page)
  return end >= all.length ? FOLLOW : pinAt(all, end, w.size)
}
