// The API the playground's pages talk to, and the browser's own switch that cuts it (blocked URLs
// over CDP): the page itself (HTML, scripts) still loads. Shared by the tests that cut the API.
import type { CDPSession, Page } from 'playwright-core'

/** Everything of the API the page talks to: the services, the socket and the token endpoint. */
export const API = ['*/support/v1/*', '*/maps/v1/*', '*/docs/v1/*', '*/realtime/v1/*', '*/api/tandem-token*']
export const isApi = (url: string) => /\/(support|maps|docs|realtime)\/v1\/|\/api\/tandem-token/.test(url)

/** Cuts the API for `page` (`on`), or lets it through again; the session stays for later switches. */
export async function blockApi(page: Page, on: boolean): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.setBlockedURLs', { urls: on ? API : [] })
  return cdp
}
