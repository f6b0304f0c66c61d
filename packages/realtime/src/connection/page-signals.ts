export interface PageHandlers {
  online: () => void
  offline: () => void
  visible: () => void
}

/** The browser says it has no network (Node and workers without `navigator.onLine` never are). */
export const isOffline = (): boolean => globalThis.navigator?.onLine === false

/** Listens to `online`, `offline` and `visibilitychange` where the platform has them; returns the undo. */
export function watchPage(h: PageHandlers): () => void {
  const doc = globalThis.document as Document | undefined
  const onVisibility = () => doc?.visibilityState === 'visible' && h.visible()
  const all = [
    [globalThis, 'online', h.online],
    [globalThis, 'offline', h.offline],
    [doc, 'visibilitychange', onVisibility],
  ] as const
  // No document, or no addEventListener on globalThis (Node): nothing to listen to there.
  const each = (method: 'addEventListener' | 'removeEventListener') => {
    for (const [target, type, listener] of all) target?.[method]?.(type, listener)
  }
  each('addEventListener')
  return () => each('removeEventListener')
}
