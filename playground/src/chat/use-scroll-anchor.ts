import { useLayoutEffect, useRef, type RefObject } from 'react'

interface Anchor {
  /** The first row the reader sees (at least its bottom edge). */
  id: string
  /** Its top, from the list's top edge (px). */
  top: number
  /** How many rows are above it. */
  index: number
  /** The window's first row: held in its place instead when the window drops the reader's rows. */
  first: string | undefined
}

/** A row's top from the scroller's top edge. */
const topOf = (row: Element, scroller: Element) =>
  row.getBoundingClientRect().top - scroller.getBoundingClientRect().top

/** The row at the top of the view: the first whose bottom is below the list's top edge. */
function readAnchor(el: HTMLElement | null): Anchor | undefined {
  const rows = el?.querySelector('.chat-rows')?.children
  if (!el || !rows?.length || el.clientHeight === 0) return undefined
  const edge = el.getBoundingClientRect().top
  // Rows are in order: halve (a dozen reads of 400 rows).
  let lo = 0
  let hi = rows.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (rows[mid]!.getBoundingClientRect().bottom > edge) hi = mid
    else lo = mid + 1
  }
  const row = rows[lo] as HTMLElement
  const first = (rows[0] as HTMLElement).dataset.id
  return row.dataset.id ? { id: row.dataset.id, top: topOf(row, el), index: lo, first } : undefined
}

const rowOf = (el: HTMLElement, id: string | undefined) =>
  id === undefined ? null : el.querySelector(`[data-id="${CSS.escape(id)}"]`)

/**
 * Scrolls `el` so that the anchor's row is where it was; how many rows came in above it. When the
 * window dropped that row (a reader paging back from the keyboard, far below the button, past the
 * window's 400 rows), the window's old first row takes its place on screen: what comes next.
 */
function restore(el: HTMLElement, a: Anchor): number {
  const own = rowOf(el, a.id)
  const row = own ?? rowOf(el, a.first)
  if (!row) return 0 // nothing the reader saw is left: nothing to hold on to
  const moved = topOf(row, el) - a.top
  if (moved !== 0) el.scrollBy({ top: moved, behavior: 'instant' })
  return Math.max(0, Array.prototype.indexOf.call(row.parentElement?.children ?? [], row) - (own ? a.index : 0))
}

/**
 * Keeps the reader's place when rows come or go above it (earlier messages loaded, a window that
 * slides): the row at the top of the view stays where it was on screen. The browser's own scroll
 * anchoring does not do it here: at `scrollTop` 0 it keeps the offset, so the view jumps to the
 * oldest row loaded (and the list turns it off: `overflow-anchor: none`, one mechanism, not two).
 *
 * `read` records the row at the top (call it on scroll, and before a change the reader asks for);
 * when `rows` (the window's first and last ids) changes while `enabled`, a layout effect scrolls by
 * how far that row moved, before the frame is painted, and `onAdded` hears how many rows came in
 * above it.
 */
export function useScrollAnchor(
  scroller: RefObject<HTMLElement | null>,
  { enabled, rows, onAdded }: { enabled: boolean; rows: string; onAdded: (n: number) => void },
): { read: () => void } {
  const anchor = useRef<Anchor | undefined>(undefined)
  // For event handlers (a scroll, a click): never called while rendering.
  const read = () => void (anchor.current = readAnchor(scroller.current))

  useLayoutEffect(() => {
    const el = scroller.current
    const a = anchor.current
    if (!enabled || !el || !a) return
    const added = restore(el, a)
    if (added > 0) onAdded(added)
    anchor.current = readAnchor(el)
  }, [scroller, enabled, rows, onAdded])

  return { read }
}
