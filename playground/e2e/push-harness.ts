// What the push e2e files share: reaching a page's service worker over CDP so a test can deliver a
// push to it as if a push service had (`ServiceWorker.deliverPushMessage`), with no push service.
import type { CDPSession, Page } from 'playwright-core'
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
