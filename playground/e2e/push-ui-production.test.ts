// Push controls (issue 47) on a production build: the only build with the app shell's service
// worker, where pushes land, so the controls are live. The messenger's "Notify me of replies" on
// the customer's page at 1100 and 360 px: one Tab after "New conversation", axe finds nothing
// serious in the open messenger, and Enter (a user gesture) asks the browser: what it answers is
// shown and said in the panel's live region. The inbox's matching control likewise.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { axeFindings, DESKTOP, hasChromium, ready, useHarness, WAIT } from './harness.js'

const messenger = (page: Page) => page.locator('tandem-messenger')

/** What has focus inside the messenger's shadow root: its text, or null. */
const focused = (page: Page) =>
  page.evaluate(() => document.querySelector('tandem-messenger')!.shadowRoot!.activeElement?.textContent ?? null)

/** Waits until the panel's live region says `text`. */
const said = (page: Page, text: string) =>
  page.waitForFunction(
    (text) =>
      document.querySelector('tandem-messenger')!.shadowRoot!.querySelector('[aria-live]')?.textContent === text,
    text,
    WAIT,
  )

describe.skipIf(!hasChromium)('the messenger’s push control', () => {
  const harness = useHarness({ serve: 'production' })

  for (const viewport of [DESKTOP, { width: 360, height: 740 }]) {
    it(`at ${viewport.width} px: reached by keyboard, axe-clean, and Enter asks the browser and says the answer`, async () => {
      const page = await harness.open(`/customer.html?customer=e2e-push-${viewport.width}`, viewport)
      // The worker the page registers is where pushes land; the control waits for it.
      await page.waitForFunction(() => navigator.serviceWorker.ready.then(() => true), undefined, WAIT)
      const launcher = messenger(page).locator('button.launcher')
      await launcher.focus()
      await page.keyboard.press('Enter')
      await messenger(page).locator('[role=dialog]:not([hidden])').waitFor(WAIT)
      const button = messenger(page).locator('.push button')
      await button.filter({ hasText: 'Notify me of replies' }).waitFor(WAIT)
      // Focus lands on "New conversation"; the control is the next stop.
      await messenger(page).getByRole('button', { name: 'New conversation' }).waitFor(WAIT)
      expect(await focused(page)).toBe('New conversation')
      await page.keyboard.press('Tab')
      expect(await focused(page)).toBe('Notify me of replies')

      expect(await axeFindings(page)).toEqual([])
      const box = (await messenger(page).locator('.push').boundingBox())!
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width)

      // From the keyboard: a user gesture, so the browser is asked. Headless Chromium has no prompt
      // to show and answers "denied" at once: the sentence says so (and is said), the button goes,
      // and focus moves to the sentence rather than to the page's body.
      await page.keyboard.press('Enter')
      const note = messenger(page).locator('.push .note')
      await note.filter({ hasText: 'Notifications are blocked in your browser settings.' }).waitFor(WAIT)
      expect(await button.isHidden()).toBe(true)
      expect(await focused(page)).toBe('Notifications are blocked in your browser settings.')
      await said(page, 'Notifications are blocked in your browser settings.')
      expect(await axeFindings(page)).toEqual([])

      // Allowed in the site's settings: the button is back, and Enter subscribes through the browser's
      // real PushManager. Chromium refuses the Push API in a fresh (incognito-like) profile, so it
      // ends in the failure sentence with its reason (or, where it subscribes, "Notifications on"):
      // shown and said. The refusal is the browser's own console line, not the page's error.
      await page.context().grantPermissions(['notifications'], { origin: harness.url })
      await button.filter({ hasText: 'Notify me of replies' }).waitFor(WAIT)
      await button.focus()
      await page.keyboard.press('Enter')
      await note.filter({ hasText: /^(Notifications on|Notifications could not be turned on .+)$/ }).waitFor(WAIT)
      await said(page, (await note.textContent())!)
      expect(await axeFindings(page)).toEqual([])
      expect(page.errors.filter((e) => !/Push API in incognito/.test(e))).toEqual([])
    })
  }

  it('the inbox: "Notify me of new messages" from the keyboard, the browser’s answer shown and said, axe-clean', async () => {
    const page = await harness.open('/?user=agent-push-prod#support')
    await ready(page)
    await page.waitForFunction(() => navigator.serviceWorker.ready.then(() => true), undefined, WAIT)
    const control = page.getByTestId('push-control')
    const toggle = control.getByRole('button', { name: 'Notify me of new messages' })
    await toggle.waitFor(WAIT)
    await page.getByRole('button', { name: '+ New conversation' }).focus()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('push-toggle')
    expect(await axeFindings(page, '#panel-support')).toEqual([])

    await page.keyboard.press('Enter')
    const status = control.getByRole('status')
    await status.filter({ hasText: 'Notifications are blocked in your browser settings.' }).waitFor(WAIT)
    expect(await control.getByRole('button').count()).toBe(0)
    // The button went away under focus: focus is on the sentence that says why.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('status')
    expect(await axeFindings(page, '#panel-support')).toEqual([])
    expect(page.errors).toEqual([])
  })
})
