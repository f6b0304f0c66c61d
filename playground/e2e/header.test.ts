// The app's header with everything it can show at once (issue 44 row 10): the "Reconnecting" badge
// with its countdown and the "N changes waiting" pill, at 1280 px (one row, no item broken over two
// lines) and at 360 px (the rows stack, each item still whole). The states are real: replies written
// offline wait in the outbox, then the REST API and the socket stay cut (the browser's own switches).
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { axeFindings, hasChromium, ready, SHOTS, useHarness, WAIT } from './harness.js'

const RUN = Date.now().toString(36)
/** The REST API the page talks to (the token endpoint still answers: the socket is cut on its own). */
const REST = ['*/support/v1/*', '*/maps/v1/*', '*/docs/v1/*', '*/realtime/v1/*']

/**
 * Every visible text of the header broken over more than one line: its text and its line count.
 * Text a screen reader alone reads (clipped to 1 px) is left out: it wraps by design.
 */
function brokenTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const header = document.querySelector('header.top')!
    const walker = document.createTreeWalker(header, NodeFilter.SHOW_TEXT)
    const out: string[] = []
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent?.trim()) continue
      const range = document.createRange()
      range.selectNodeContents(n)
      const box = range.getBoundingClientRect()
      if (box.width <= 1 || box.height <= 1) continue // visually hidden (sr-only) or not rendered
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)))
      if (lines.size > 1) out.push(`${JSON.stringify(n.textContent.trim())} on ${lines.size} lines`)
    }
    return out
  })
}

/** The header's items' boxes: how many rows they sit on (by their vertical centres). */
function headerRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const items = [...document.querySelectorAll('header.top > *')].filter((e) => {
      const r = e.getBoundingClientRect()
      return r.width > 1 && r.height > 1 && getComputedStyle(e).position !== 'absolute'
    })
    const centres = items.map((e) => {
      const r = e.getBoundingClientRect()
      return r.top + r.height / 2
    })
    // Items whose centres are within 8 px of each other share a row.
    return centres
      .sort((a, b) => a - b)
      .reduce<number[]>((rows, c) => (rows.length && c - rows.at(-1)! < 8 ? rows : [...rows, c]), []).length
  })
}

describe.skipIf(!hasChromium)('the header', () => {
  const harness = useHarness()

  /** The page as `user` with 3 replies waiting and the socket reconnecting (its countdown shown). */
  async function stormy(user: string, viewport: { width: number; height: number }): Promise<Page> {
    const page = await harness.open(`/?user=${user}#support`, viewport)
    await ready(page)
    await page.getByTestId('conversation').first().click()
    await page.getByTestId('conversation-view').waitFor(WAIT)
    await page.context().setOffline(true)
    const box = page.locator('#reply-text')
    for (let i = 1; i <= 3; i++) {
      await box.fill(`held reply ${i}`)
      await box.press('Control+Enter')
    }
    await page.locator('[data-testid="outbox-status"][data-count="3"]').waitFor(WAIT)
    // Back online with the REST API cut, and every new socket closed as it opens (CDP's blocked URLs
    // do not reach a WebSocket); a reload makes the new socket: it fails, and retries, and fails.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.setBlockedURLs', { urls: REST })
    await page.routeWebSocket(/\/realtime\/v1\//, (ws) => ws.close({ code: 1011, reason: 'cut by the test' }))
    await page.context().setOffline(false)
    await page.reload()
    await page.locator('[data-testid="outbox-status"][data-count="3"]').waitFor(WAIT)
    await page.locator('header [data-testid="connection-state"][data-state="reconnecting"]').waitFor(WAIT)
    await page.locator('header [data-testid="retry-in"]').waitFor(WAIT)
    return page
  }

  it('at 1280 px the Reconnecting badge and "3 changes waiting" fit: one row, no text over two lines', async () => {
    const page = await stormy(`e2e-header-${RUN}`, { width: 1280, height: 800 })
    await page.screenshot({ path: join(SHOTS, 'header-1280.png'), clip: { x: 0, y: 0, width: 1280, height: 120 } })
    expect(await page.getByTestId('outbox-status').textContent()).toBe('3 changes waiting to be sent')
    expect(await brokenTexts(page)).toEqual([])
    expect(await headerRows(page)).toBe(1)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
    expect(await axeFindings(page)).toEqual([])

    // The secondary links sit behind one disclosure: Enter opens it, Tab reaches them, Escape closes it.
    const more = page.getByTestId('header-links')
    await more.focus()
    await page.keyboard.press('Enter')
    const vanilla = page.getByRole('link', { name: 'Vanilla page' })
    await vanilla.waitFor(WAIT)
    await page.keyboard.press('Tab')
    expect(await vanilla.evaluate((a) => a === document.activeElement)).toBe(true)
    expect(await axeFindings(page)).toEqual([])
    await page.keyboard.press('Escape')
    await vanilla.waitFor({ ...WAIT, state: 'hidden' })
    expect(await more.evaluate((s) => s === document.activeElement)).toBe(true)
  })

  it('at 360 px the header stacks its rows, each item whole, nothing past the edge', async () => {
    const page = await stormy(`e2e-header-p-${RUN}`, { width: 360, height: 780 })
    await page.screenshot({ path: join(SHOTS, 'header-360.png') })
    expect(await brokenTexts(page)).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    expect(await axeFindings(page)).toEqual([])
  })
})
