// Any screen, any input: axe-core finds no serious or critical violation on any page (every
// HTML file of the playground, every tab of the app) at desktop and phone widths, a bad `?user=`
// is named on every page instead of silently replaced, nothing scrolls sideways from 360 px up,
// the tabs work from the keyboard, and a long chat message neither breaks the layout nor is lost
// when it is too long to send.
import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  axeFindings,
  DESKTOP,
  hasChromium,
  here,
  PHONE,
  ready,
  SHOTS,
  useHarness,
  WAIT,
  type TestPage,
} from './harness.js'
import { openView, pageViews } from './pages.js'

const TABS = ['maps', 'support', 'chat'] as const
const PHONE_SHOT = here('../../docs/playground-phone.png')

/** Waits for what each tab loads, so axe sees the page as a person would. */
async function loaded(page: Page, tab: (typeof TABS)[number]) {
  const selector = {
    maps: '[data-country]',
    support: '[data-testid="conversation"]',
    chat: '[data-testid="messages"][data-history="loaded"]',
  }[tab]
  await page
    .locator(selector)
    .first()
    .waitFor({ state: 'attached', ...WAIT })
}

const sideways = (page: Page) =>
  page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))

/** Scrolling regions (the lists, the chat) that scroll sideways inside themselves: the page can't see those. */
const scrollersTooWide = (page: Page) =>
  page.$$eval('.messages, .conversations, .threads, .places, .support-detail', (els) =>
    els
      .filter((e) => (e as HTMLElement).offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
      .map((e) => `${e.className}: ${e.scrollWidth} > ${e.clientWidth}`),
  )

describe.skipIf(!hasChromium)('accessibility and layout', () => {
  const harness = useHarness()
  beforeAll(() => mkdir(SHOTS, { recursive: true }))

  // Every HTML file of playground/ (so a page added later is checked too), each tab of the app
  // opened by its URL (and the support tab with a conversation open; the same tabs reached by a
  // click are the sideways test's below), at both widths on one page (the layout is CSS alone: a
  // resize shows what a load at that width shows). And with a `?user=` that breaks the rule: its
  // notice, on every page, names the rule and the name used instead, and passes axe too.
  for (const view of pageViews())
    it(`${view.name}: no serious or critical axe-core violation at ${DESKTOP.width} and ${PHONE.width} px, with a good and a bad ?user=`, async () => {
      const findings: string[] = []
      const sweep = async (page: TestPage, as: string, within?: string) => {
        for (const viewport of [DESKTOP, PHONE]) {
          await page.setViewportSize(viewport)
          findings.push(...(await axeFindings(page, within)).map((f) => `${as} at ${viewport.width} px: ${f}`))
        }
        expect(page.errors).toEqual([])
      }
      const fine = await openView(harness.open, view, 'axe-page')
      expect(await fine.getByTestId('user-notice').count()).toBe(0)
      await sweep(fine, view.name)
      if (view.tab === 'support') {
        // With a conversation open too: its status buttons, threads and reply form.
        await fine.locator('[data-testid="conversation"]').first().click()
        await fine.getByTestId('conversation-view').waitFor(WAIT)
        await sweep(fine, 'an open conversation')
      }

      const renamed = await openView(harness.open, view, 'Ada%20Lovelace!')
      const notice = renamed.getByTestId('user-notice')
      await notice.waitFor(WAIT)
      const user = new URL(renamed.url()).searchParams.get(view.param)!
      expect(user).toMatch(/^[a-z]+-\d{3}$/)
      const text = (await notice.textContent())!
      expect(text).toContain('“Ada Lovelace!”')
      expect(text).toContain(`?${view.param}=`)
      expect(text).toContain('1 to 32 letters, digits, _ or -')
      expect(text).toContain(`“${user}”`)
      expect(await notice.isVisible()).toBe(true)
      // The notice is all that differs from the page checked whole above.
      await sweep(renamed, `${view.name} (renamed)`, '[data-testid="user-notice"]')
      expect(findings).toEqual([])
    })

  it('the sweeps reach every page: each HTML file of playground/, each tab of the app', () => {
    expect(pageViews().map((v) => v.name)).toEqual(
      expect.arrayContaining([
        'index.html#maps',
        'index.html#support',
        'index.html#chat',
        'vanilla.html',
        'tabs.html',
        'customer.html',
      ]),
    )
  })

  for (const width of [360, 390]) {
    it(`nothing scrolls sideways at ${width} px; the tabs and the connection badge stay on screen`, async () => {
      const page = await harness.open(`/?user=narrow-${width}#maps`, { width, height: 800 })
      await ready(page)
      for (const tab of TABS) {
        await page.getByRole('tab', { name: { maps: 'Maps', support: 'Support inbox', chat: 'Chat' }[tab] }).click()
        await loaded(page, tab)
        const { scrollWidth, innerWidth } = await sideways(page)
        expect(scrollWidth, `${tab} at ${width} px`).toBeLessThanOrEqual(innerWidth)
        expect(await scrollersTooWide(page), `${tab} at ${width} px`).toEqual([])
        for (const testId of ['connection-state', 'world-map', 'conversations', 'messages', 'presence']) {
          const el = page.getByTestId(testId).first()
          if (!(await el.isVisible())) continue // on another tab
          const box = (await el.boundingBox())!
          expect(box.x + box.width, `${testId} on ${tab}`).toBeLessThanOrEqual(width)
        }
        for (const t of await page.getByRole('tab').all()) {
          const box = (await t.boundingBox())!
          expect(box.x >= 0 && box.x + box.width <= width).toBe(true)
        }
      }
      if (width === 390) {
        await page.getByRole('tab', { name: 'Maps' }).click()
        await loaded(page, 'maps')
        const shot = join(SHOTS, 'phone.png')
        await page.screenshot({ path: shot })
        if (process.env.UPDATE_DOCS_SCREENSHOT) await copyFile(shot, PHONE_SHOT)
      }
      expect(page.errors).toEqual([])
    })
  }

  it('the tabs follow the arrow keys, Home and End, and each names the panel it controls', async () => {
    const page = await harness.open('/?user=keys#maps')
    await ready(page)
    const selected = () => page.locator('[role="tab"][aria-selected="true"]').textContent()
    await page.getByRole('tab', { name: 'Maps' }).focus()
    await page.keyboard.press('ArrowRight')
    expect(await selected()).toBe('Support inbox')
    expect(await page.evaluate(() => location.hash)).toBe('#support')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Support inbox')
    await page.keyboard.press('End')
    expect(await selected()).toBe('Chat')
    await page.keyboard.press('ArrowRight') // wraps
    expect(await selected()).toBe('Maps')
    await page.keyboard.press('ArrowLeft')
    expect(await selected()).toBe('Chat')
    await page.keyboard.press('Home')
    expect(await selected()).toBe('Maps')
    // One Tab stop for the list, and aria-controls points at a panel that exists.
    expect(await page.locator('[role="tab"][tabindex="0"]').count()).toBe(1)
    for (const tab of await page.getByRole('tab').all()) {
      const controls = await tab.getAttribute('aria-controls')
      expect(await page.locator(`#${controls}[role="tabpanel"]`).count()).toBe(1)
    }
    expect(page.errors).toEqual([])
  })

  it('a 400-character word wraps at phone width; a message over the limit stays in the input with the reason', async () => {
    const page = await harness.open('/?user=long-words#chat', PHONE)
    await ready(page)
    await page.locator('[data-testid="messages"][data-history="loaded"]').waitFor(WAIT)
    const input = page.getByLabel('Message')
    const word = 'x'.repeat(400)
    await input.fill(word)
    await input.press('Enter')
    await page.locator('[data-testid="message"]', { hasText: word }).waitFor(WAIT)
    const { scrollWidth, innerWidth } = await sideways(page)
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
    // The list scrolls inside itself: the word must wrap in it, not widen it.
    expect(await scrollersTooWide(page)).toEqual([])

    const tooLong = 'y'.repeat(70_000)
    await input.fill(tooLong)
    await input.press('Enter')
    const error = page.getByTestId('send-error')
    await error.waitFor(WAIT)
    expect(await error.textContent()).toMatch(/Too long: 70,000 bytes, at most [\d,]+/)
    expect(await input.inputValue()).toBe(tooLong) // not cleared, not lost
    expect(page.errors).toEqual([])
  })
})
