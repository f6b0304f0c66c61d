// A hidden page (closed, or into the back/forward cache) and a frozen one leave the group; a page
// shown again from that cache, or resumed, joins it.

export interface LifecycleHandlers {
  hide: () => void
  show: () => void
}

/** Listens where the platform has these events (pages do, Node and workers do not); returns the undo. */
export function watchLifecycle({ hide, show }: LifecycleHandlers): () => void {
  const page: Partial<EventTarget> = globalThis
  const doc: Partial<EventTarget> | undefined = globalThis.document
  const onShow = (e: Event) => 'persisted' in e && e.persisted && show()
  const each = (method: 'addEventListener' | 'removeEventListener') => {
    page[method]?.('pagehide', hide)
    page[method]?.('pageshow', onShow)
    doc?.[method]?.('freeze', hide)
    doc?.[method]?.('resume', show)
  }
  each('addEventListener')
  return () => each('removeEventListener')
}
