export interface PageHandlers {
  online(): void
  offline(): void
  visible(): void
}

/** The browser says it has no network (Node and workers without `navigator.onLine` never are). */
export const isOffline = (): boolean => typeof navigator !== 'undefined' && navigator.onLine === false

/** Listens to `online`, `offline` and `visibilitychange` where the platform has them; returns the undo. */
export function watchPage(h: PageHandlers): () => void {
  const win = typeof globalThis.addEventListener === 'function' ? globalThis : undefined
  const doc = typeof document === 'undefined' ? undefined : document
  const onVisibility = () => doc?.visibilityState === 'visible' && h.visible()
  const all = [[win, 'online', h.online], [win, 'offline', h.offline], [doc, 'visibilitychange', onVisibility]] as const
  for (const [target, type, listener] of all) target?.addEventListener(type, listener)
  return () => {
    for (const [target, type, listener] of all) target?.removeEventListener(type, listener)
  }
}
