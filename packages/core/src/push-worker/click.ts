// `notificationclick` on a Tandem notification: close it, focus a tab already at its URL, else open
// it. Only the worker's own origin: a payload's URL elsewhere opens the registration's scope instead.
import type { PushWorkerScope, ShownNotification, WorkerEvent } from './types.js'
import { payloadOf } from './show.js'

export interface ClickEventLike extends WorkerEvent {
  readonly notification: ShownNotification
}

/** Where a click goes: the payload's URL on the scope's origin, else the scope. */
export function clickTarget(scope: string, url: string | null): URL {
  const home = new URL(scope)
  try {
    const to = new URL(url ?? home, home)
    return to.origin === home.origin ? to : home
  } catch {
    return home
  }
}

export function onClick(scope: PushWorkerScope) {
  return (event: ClickEventLike) => {
    const payload = payloadOf(event.notification)
    // Another notification of the app's: its own handler's business.
    if (!payload) return
    event.notification.close()
    const to = clickTarget(scope.registration.scope, payload.url)
    event.waitUntil(
      scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((tabs) => {
        const tab = tabs.find((c) => {
          const at = new URL(c.url)
          return at.origin === to.origin && at.pathname === to.pathname && at.search === to.search
        })
        return tab ? tab.focus() : scope.clients.openWindow(to.href)
      }),
    )
  }
}
