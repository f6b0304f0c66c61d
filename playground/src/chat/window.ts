// Which of the messages held are in the DOM: a window that follows the newest, or is held where the
// reader paged back to. Pure, so the list's render decides nothing else (and a test can read it).

/** Rows shown while following the newest. */
export const WINDOW = { size: 150, page: 100, max: 400 } as const

export interface ChatWindow {
  /** The last message in the window while held (undefined: follow the newest). */
  pinned: string | undefined
  /** Rows asked for (grows by a page each "Load earlier"; the window slides up past `max`). */
  size: number | undefined
}

export interface WindowOf<M> {
  messages: readonly M[]
  start: number
  end: number
  size: number
  page: number
  /** Messages newer than the window (arrived while the reader was paging back). */
  after: number
}

export function windowOf<M extends { messageId: string }>(all: readonly M[], view: ChatWindow): WindowOf<M> {
  let end = all.length
  if (view.pinned !== undefined) {
    // From the newest end: the pinned message is near it, and a message is held only once.
    for (let i = all.length - 1; i >= 0; i--)
      if (all[i]!.messageId === view.pinned) {
        end = i + 1
        break
      }
  }
  const wanted = Math.max(1, view.size ?? WINDOW.size)
  // Past `max`, the window slides up rather than grows: the DOM stays bounded however far back one goes.
  end = Math.max(Math.min(end, all.length) - Math.max(0, wanted - WINDOW.max), Math.min(all.length, 1))
  const size = Math.min(wanted, WINDOW.max)
  const start = Math.max(0, end - size)
  return { messages: all.slice(start, end), start, end, size: wanted, page: WINDOW.page, after: all.length - end }
}
