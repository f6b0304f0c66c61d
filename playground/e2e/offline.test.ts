// Offline is offline (issue 44, row 4) and dev controls absent from what ships (row 12), in Chromium
// against the PRODUCTION build (`vite build`, as `npm run build -w playground` makes it): only it has
// the app-shell service worker (src/sw/sw.ts) and lacks the dev server's controls. The network is cut
// with the browser's own switches (offline, blocked URLs over CDP), never mocked. No sleeps.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { axeFindings, hasChromium, ready, useHarness, WAIT } from './harness.js'
import { blockApi, isApi } from './network.js'
import { cacheSaved } from './stored.js'

/** A fresh prefix per run: the file's emulator keeps what each test wrote. */
const RUN = Date.now().toString(36)
/** What a page with the network cut logs by itself: failed loads and the socket's failed connection. */
const NETWORK_ERROR = /ERR_INTERNET_DISCONNECTED|ERR_BLOCKED_BY_CLIENT|Failed to load resource|WebSocket connection to/

const OFFLINE = 'You are offline; your changes will be sent when the connection is back.'
const UNREACHABLE = "The server can't be reached right now; your changes are kept and will be sent when it answers."

const rows = (page: Page) => page.getByTestId('conversation')
const rowIds = (page: Page) => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))
const logLine = (page: Page, text: string | RegExp) => page.getByTestId('event-log').locator('li', { hasText: text })

/** Resolves once the app-shell worker is active and controls the page (it claims the first visit). */
function controlled(page: Page): Promise<unknown> {
  return page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, WAIT)
}

/** The paths the page's Cache Storage holds, every cache (the worker's precache is one). */
function cached(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const paths: string[] = []
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname)
    return paths.sort()
  })
}

/** Opens the inbox as `user`, waits for its rows, its saved cache and the worker; returns the rows' ids. */
async function visit(page: Page, user: string): Promise<(string | null)[]> {
  await rows(page).first().waitFor(WAIT)
  await cacheSaved(page, user)
  await controlled(page)
  return rowIds(page)
}

describe.skipIf(!hasChromium)('offline is offline: the production build, in Chromium', () => {
  const harness = useHarness({ serve: 'production' })

  it('a reload with the network off paints the saved inbox from the app shell and says it is offline', async () => {
    const user = `e2e-sw-${RUN}`
    const page = await harness.open(`/?user=${user}#support`)
    let apiFromWorker = 0
    page.on('response', (r) => void (isApi(r.url()) && r.fromServiceWorker() && apiFromWorker++))
    const ids = await visit(page, user)
    expect(ids.length).toBeGreaterThan(0)
    // The worker holds the built shell, and nothing of the API (the SDK's saved cache is the data's copy).
    const shell = await cached(page)
    expect(shell).toEqual(expect.arrayContaining(['/index.html', '/customer.html', '/vanilla.html', '/tabs.html']))
    expect(shell.some((p) => p.endsWith('.js'))).toBe(true)
    expect(shell.filter((p) => isApi(p) || p.startsWith('/api/'))).toEqual([])

    await page.context().setOffline(true)
    const reload = await page.reload()
    expect(reload?.fromServiceWorker()).toBe(true)
    expect(await page.evaluate(() => navigator.onLine)).toBe(false)
    await logLine(page, /restored \d+ saved entries/).waitFor(WAIT)
    expect(await rowIds(page)).toEqual(ids)
    // The list's revalidation cannot reach the token endpoint: said politely, as what it is.
    const notice = page.getByTestId('list-error')
    await notice.waitFor(WAIT)
    expect(await notice.getAttribute('data-connectivity')).toBe('offline')
    expect(await notice.getByRole('status').textContent()).toBe(OFFLINE)
    expect(await notice.getByRole('alert').count()).toBe(0)
    // ... and the saved rows stay.
    expect(await rowIds(page)).toEqual(ids)
    expect(await axeFindings(page)).toEqual([])

    // Back online: the list refreshes by itself and the notice goes.
    await page.context().setOffline(false)
    await notice.waitFor({ ...WAIT, state: 'detached' })
    expect(apiFromWorker).toBe(0)
    expect(page.errors.filter((e) => !NETWORK_ERROR.test(e))).toEqual([])
  })

  it('with only the API down, the saved inbox says the server cannot be reached, not "Reload the page"', async () => {
    const user = `e2e-api-down-${RUN}`
    // At the narrowest width the playground supports: the sentence wraps, nothing scrolls sideways.
    const page = await harness.open(`/?user=${user}#support`, { width: 360, height: 740 })
    const ids = await visit(page, user)
    await blockApi(page, true)

    await page.reload()
    await logLine(page, /restored \d+ saved entries/).waitFor(WAIT)
    const notice = page.getByTestId('list-error')
    await notice.waitFor(WAIT)
    expect(await notice.getAttribute('data-code')).toBe('token_endpoint_unavailable')
    expect(await notice.getAttribute('data-connectivity')).toBe('unreachable')
    expect(await notice.getByRole('status').textContent()).toBe(UNREACHABLE)
    expect(await notice.textContent()).not.toContain('Reload the page')
    expect(await notice.getByRole('alert').count()).toBe(0)
    expect(await rowIds(page)).toEqual(ids)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    expect(await axeFindings(page)).toEqual([])
    expect(page.errors.filter((e) => !NETWORK_ERROR.test(e))).toEqual([])
  })

  it('a new version waits for the Reload of its notice, then takes over', async () => {
    const user = `e2e-update-${RUN}`
    const page = await harness.open(`/?user=${user}#support`)
    await visit(page, user)
    // A deploy: the worker's bytes change. The open page learns of it and asks; nothing reloads by itself.
    await writeFile(join(harness.dir!, 'sw.js'), `\n// a new version ${RUN}\n`, { flag: 'a' })
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update())
    const notice = page.getByTestId('update-notice')
    await notice.waitFor(WAIT)
    expect(await notice.getAttribute('role')).toBe('status')
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting !== null)).toBe(
      true,
    )
    expect(await axeFindings(page)).toEqual([])

    // From the keyboard: Enter on the notice's button.
    await Promise.all([page.waitForEvent('load', WAIT), notice.getByRole('button', { name: 'Reload' }).press('Enter')])
    await rows(page).first().waitFor(WAIT)
    await controlled(page)
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting)).toBe(null)
    expect(await page.getByTestId('update-notice').count()).toBe(0)
    expect(page.errors).toEqual([])
  })

  it('holds no dev control: no Drop connection, Expire token, Flood or Simulate a 429, no render counter', async () => {
    const page = await harness.open(`/?user=e2e-prod-${RUN}#chat`)
    await ready(page)
    await page.getByTestId('messages').waitFor(WAIT)
    for (const control of ['drop', 'expire', 'flood']) expect(await page.getByTestId(control).count()).toBe(0)
    expect(await page.getByRole('button', { name: /Drop connection|Expire token|Flood/ }).count()).toBe(0)
    expect(await page.evaluate(() => '__chatListCommits' in window)).toBe(false)
    await page.getByRole('tab', { name: 'Maps' }).click()
    await page.locator('#place-query').waitFor(WAIT)
    expect(await page.getByTestId('simulate-429').count()).toBe(0)
    expect(page.errors).toEqual([])
  })
})
