const w = globalThis as {
  addEventListener?: typeof addEventListener
  removeEventListener?: typeof removeEventListener
  document?: Document
  navigator?: { onLine?: boolean }
}

/** Calls `fn` on the window's `event`, and when the page's visibility becomes `visibility`; returns the stop. */
function watchPage(event: string, visibility: DocumentVisibilityState, fn: () => void): () => void {
  const d = w.document
  if (typeof w.addEventListener !== 'function' || !d) return () => {}
  const onVisibility = () => d.visibilityState === visibility && fn()
  w.addEventListener(event, fn)
  d.addEventListener('visibilitychange', onVisibility)
  return () => {
    w.removeEventListener!(event, fn)
    d.removeEventListener('visibilitychange', onVisibility)
  }
}

/** Calls `fn` when the page is hidden or goes away (a reload, a closed tab): the last chance to save. */
export const watchPageHide = (fn: () => void): (() => void) => watchPage('pagehide', 'hidden', fn)

/**
 * Calls `fn` when the page is shown again (visible, or back from the back/forward cache): a page
 * that slept may have missed what its tabs said meanwhile (a logout).
 */
export const watchPageShow = (fn: () => void): (() => void) => watchPage('pageshow', 'visible', fn)

/** Calls `fn(online)` when the page goes offline or comes back online; `isOnline()` is false only when the platform says so. */
export function watchOnline(fn: (online: boolean) => void): { isOnline: () => boolean; stop: () => void } {
  const isOnline = () => w.navigator?.onLine !== false
  if (typeof w.addEventListener !== 'function') return { isOnline, stop: () => {} }
  const on = () => fn(true)
  const off = () => fn(false)
  w.addEventListener('online', on)
  w.addEventListener('offline', off)
  return {
    isOnline,
    stop() {
      w.removeEventListener!('online', on)
      w.removeEventListener!('offline', off)
    },
  }
}
