// "Go offline": the page looks offline to the SDK the way the browser shows it when the network
// goes: `navigator.onLine` reads false and `offline` fires on the window. The realtime connection
// goes `disconnected` (reason `offline`) and stops reconnecting, refetches on reconnect wait, the
// durable outbox holds writes. Nothing is cut: a request the app makes anyway still reaches the
// network. "Back online" undoes it and fires `online`.

let forced: PropertyDescriptor | 'none' | undefined

/** Whether the devtools made the page look offline (and have not undone it). */
export const isForcedOffline = (): boolean => forced !== undefined

export function goOffline(): void {
  const nav = globalThis.navigator as object | undefined
  if (forced !== undefined || !nav) return
  // Kept to put back: browsers define onLine on Navigator.prototype, some test DOMs on the object.
  forced = Object.getOwnPropertyDescriptor(nav, 'onLine') ?? 'none'
  Object.defineProperty(nav, 'onLine', { configurable: true, get: () => false })
  globalThis.dispatchEvent(new Event('offline'))
}

export function goOnline(): void {
  const nav = globalThis.navigator as object | undefined
  if (forced === undefined || !nav) return
  if (forced === 'none') Reflect.deleteProperty(nav, 'onLine')
  else Object.defineProperty(nav, 'onLine', forced)
  forced = undefined
  globalThis.dispatchEvent(new Event('online'))
}
