// What the push e2e files share: reaching a page's service worker over CDP so a test can deliver a
// push to it as if a push service had (`ServiceWorker.deliverPushMessage`), with no push service.
import type { CDPSession, Page, Worker } from 'playwright-core'
import { WAIT } from './harness.js'

export interface PushCdp {
  cdp: CDPSession
  /** Hands `data` to the worker's `push` event, as the browser would for a real push. */
  deliver(data: string): Promise<void>
}

/**
 * Allows notifications for `origin` and finds the worker registration whose scope is its root.
 * The page must already be controlled by the worker. Rejects after WAIT.timeout: no endless wait.
 */
export async function pushCdp(page: Page, origin: string): Promise<PushCdp> {
  // Browser.grantPermissions, as Playwright sends it.
  await page.context().grantPermissions(['notifications'], { origin })
  const cdp = await page.context().newCDPSession(page)
  let timer: NodeJS.Timeout | undefined
  const registrationId = new Promise<string>((resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no service worker registration for ${origin}/ after ${WAIT.timeout} ms`)),
      WAIT.timeout,
    )
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted)
      if (found) resolve(found.registrationId)
    })
  })
  // The listener is in place first: enabling reports the registrations at once.
  await cdp.send('ServiceWorker.enable')
  const id = await registrationId.finally(() => clearTimeout(timer))
  return {
    cdp,
    deliver: async (data) =>
      void (await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data })),
  }
}

export interface WatchedWorker extends PushCdp {
  origin: string
  sw: Worker
}

/**
 * The worker controlling `page` (waited for), reachable over CDP, with its showNotification calls
 * counted in the worker: `shownIds` as called, `doneIds` once up (a replaced notification is gone
 * from getNotifications(), and one is listed there only once its promise resolved).
 */
export async function watchWorker(page: Page): Promise<WatchedWorker> {
  const origin = new URL(page.url()).origin
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, WAIT)
  const pushes = await pushCdp(page, origin)
  const sw = page.context().serviceWorkers()[0] ?? (await page.context().waitForEvent('serviceworker', WAIT))
  await sw.evaluate(() => {
    const scope = self as unknown as { shownIds: string[]; doneIds: string[]; registration: object }
    scope.shownIds = []
    scope.doneIds = []
    const proto = Object.getPrototypeOf(scope.registration) as {
      showNotification: (title: string, o: { data: { tandem: { messageId: string } } }) => Promise<void>
    }
    const show = proto.showNotification
    proto.showNotification = function (title, o) {
      const id = o.data.tandem.messageId
      scope.shownIds.push(id)
      return show.call(this, title, o).then(() => void scope.doneIds.push(id))
    }
  })
  return { ...pushes, origin, sw }
}

/** Waits (bounded) until the worker's notification for `messageId` is up: the pushes before it were handled. */
export const handled = (sw: Worker, messageId: string) =>
  sw.evaluate(
    ([id, timeout]) =>
      new Promise<void>((resolve, reject) => {
        const scope = self as unknown as { shownIds: string[]; doneIds: string[] }
        const until = Date.now() + timeout
        const check = () => {
          if (scope.doneIds.includes(id)) resolve()
          else if (Date.now() > until) reject(new Error(`${id} not shown; shown: ${scope.shownIds.join(', ')}`))
          else setTimeout(check, 20)
        }
        check()
      }),
    [messageId, WAIT.timeout] as const,
  )

/** The message ids the worker asked to show, in order. */
export const shownIds = (sw: Worker) => sw.evaluate(() => (self as unknown as { shownIds: string[] }).shownIds)
