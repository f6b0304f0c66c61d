/** Calls `fn` when the page is hidden or goes away (a reload, a closed tab): the last chance to save. */
export function watchPageHide(fn: () => void): () => void {
  const w = globalThis as {
    addEventListener?: typeof addEventListener
    removeEventListener?: typeof removeEventListener
    document?: Document
  }
  if (typeof w.addEventListener !== 'function' || !w.document) return () => {}
  const onVisibility = () => w.document!.visibilityState === 'hidden' && fn()
  w.addEventListener('pagehide', fn)
  w.document.addEventListener('visibilitychange', onVisibility)
  return () => {
    w.removeEventListener!('pagehide', fn)
    w.document!.removeEventListener('visibilitychange', onVisibility)
  }
}

/** Calls `fn(online)` when the page goes offline or comes back online; `isOnline()` is false only when the platform says so. */
export function watchOnline(fn: (online: boolean) => void): { isOnline: () => boolean; stop: () => void } {
  const w = globalThis as {
    addEventListener?: typeof addEventListener
    removeEventListener?: typeof removeEventListener
    navigator?: { onLine?: boolean }
  }
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

/**
 * Calls `fn` when the page is shown again (visible, or back from the back/forward cache): a page
 * that slept may have missed what its tabs said meanwhile (a logout).
 */
export function watchPageShow(fn: () => void): () => void {
  const w = globalThis as {
    addEventListener?: typeof addEventListener
    removeEventListener?: typeof removeEventListener
    document?: Document
  }
  if (typeof w.addEventListener !== 'function' || !w.document) return () => {}
  const onVisibility = () => w.document!.visibilityState === 'visible' && fn()
  w.addEventListener('pageshow', fn)
  w.document.addEventListener('visibilitychange', onVisibility)
  return () => {
    w.removeEventListener!('pageshow', fn)
    w.document!.removeEventListener('visibilitychange', onVisibility)
  }
}
