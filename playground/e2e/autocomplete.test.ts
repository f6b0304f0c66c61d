// The address line's autocomplete in Chromium (issue 32): a WAI-ARIA 1.2 combobox typed at a
// person's pace costs a few requests within the maps quota, is driven from the keyboard (arrows,
// Enter, Escape), says its count in a live region, passes axe-core open, fits at 360 px, and
// leads to the "did you mean" step with the service's corrections highlighted.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { axeFindings, hasChromium, SHOTS, useHarness, WAIT, type TestPage } from './harness.js'

const ADDRESS = '1600 Amphitheatre Parkway, Mountain View'

/** The page's autocomplete requests from now on (the client may encode the colon). */
function countAutocomplete(page: Page): string[] {
  const urls: string[] = []
  page.on('request', (r) => {
    if (/\/maps\/v1\/places(:|%3A)autocomplete/i.test(r.url())) urls.push(r.url())
  })
  return urls
}

const field = (page: Page) => page.getByRole('combobox', { name: 'Address line' })
/** The suggestions (the page has other options: the route's mode select). */
const options = (page: Page) => page.getByRole('listbox', { name: 'Address suggestions' }).getByRole('option')

/** Waits for the polite live region to say `text` (a pattern). */
const announces = (page: Page, text: RegExp) =>
  page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('[data-testid="suggestion-count"]')?.textContent ?? ''),
    text.source,
    WAIT,
  )

async function openPage(
  harness: ReturnType<typeof useHarness>,
  user: string,
  viewport?: { width: number; height: number },
) {
  const page = await harness.open(`/?user=${user}#maps`, viewport)
  await field(page).waitFor(WAIT)
  return page
}

/** The list's open state as the input tells it, and the listbox it controls. */
async function listState(page: Page) {
  const input = field(page)
  const listId = (await input.getAttribute('aria-controls'))!
  return {
    expanded: await input.getAttribute('aria-expanded'),
    listVisible: await page.locator(`#${listId}`).isVisible(),
    active: await input.getAttribute('aria-activedescendant'),
  }
}

const noErrors = (page: TestPage) => expect(page.errors).toEqual([])

describe.skipIf(!hasChromium)('the address line autocompletes (issue 32)', () => {
  const harness = useHarness()

  it('typed at 80 ms a character: ≤ 4 requests, the count announced, ArrowDown + Enter chooses, axe passes open', async () => {
    const page = await openPage(harness, 'ac-keys')
    const requests = countAutocomplete(page)
    const input = field(page)
    await input.fill('') // the form's example address goes; an empty text asks nothing
    await input.pressSequentially(ADDRESS, { delay: 80 })

    const option = options(page).filter({ hasText: '1600 Amphitheatre Parkway' }).first()
    await option.waitFor(WAIT)
    await announces(page, /^\d+ suggestions?$/)
    const open = await listState(page)
    expect(open).toMatchObject({ expanded: 'true', listVisible: true, active: null })
    // The address first (streets with the typed number lead): ArrowDown + Enter chooses it.
    expect(await options(page).first().textContent()).toMatch(/^1600 Amphitheatre Parkway Mountain View/)
    expect(await axeFindings(page)).toEqual([])

    // ArrowDown makes the first option active (the focus stays in the input), Up wraps to the last.
    await input.press('ArrowDown')
    const first = await options(page).first().getAttribute('id')
    expect((await listState(page)).active).toBe(first)
    expect(await page.locator(`#${first}`).getAttribute('aria-selected')).toBe('true')
    const count = await options(page).count()
    await input.press('ArrowUp')
    expect((await listState(page)).active).toBe(
      await options(page)
        .nth(count - 1)
        .getAttribute('id'),
    )
    await input.press('ArrowDown') // wraps back to the first
    expect((await listState(page)).active).toBe(first)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('address-line')

    await input.press('Enter')
    expect(await input.inputValue()).toBe('1600 Amphitheatre Parkway')
    expect(await page.getByLabel('Locality').inputValue()).toBe('Mountain View')
    expect((await listState(page)).expanded).toBe('false')
    // The "did you mean" step: the service's check of the chosen address, and the two choices.
    await page.getByTestId('did-you-mean').waitFor(WAIT)
    const result = page.getByTestId('address-result')
    expect(await result.textContent()).toContain('1600 Amphitheatre Parkway')
    await page.waitForFunction(
      () => (document.querySelector('#address-region') as HTMLInputElement | null)?.value === 'US',
      undefined,
      WAIT,
    )
    await result.getByRole('button', { name: 'Keep what I typed' }).click()
    await page.getByTestId('address-note').filter({ hasText: 'Kept what you typed.' }).waitFor(WAIT)
    expect(await result.count()).toBe(0)
    expect(await input.inputValue()).toBe('1600 Amphitheatre Parkway')

    expect(requests.length).toBeGreaterThanOrEqual(1)
    expect(requests.length, requests.join('\n')).toBeLessThanOrEqual(4)
    noErrors(page)
  })

  it('the form’s own "Rua Augusta 100" (the number after the street) is suggested, and chosen from the keyboard (issue 44)', async () => {
    const page = await openPage(harness, 'ac-number-after')
    const input = field(page)
    expect(await input.inputValue()).toBe('Rua Augusta 100') // the form's example, as Lisbon writes it
    await input.fill('')
    await input.pressSequentially('Rua Augusta 100', { delay: 80 })
    await announces(page, /^(\d+ suggestions?|No suggestions)$/)
    expect(await page.getByTestId('suggestion-count').textContent()).toBe('1 suggestion')
    expect(await options(page).first().textContent()).toBe('Rua Augusta 100 Lisbon, Portugal')
    expect(await axeFindings(page)).toEqual([])
    await input.press('ArrowDown')
    await input.press('Enter')
    await page.getByTestId('did-you-mean').waitFor(WAIT)
    expect(await input.inputValue()).toBe('Rua Augusta 100')
    expect(await page.getByLabel('Locality').inputValue()).toBe('Lisbon')
    await page.waitForFunction(
      () => (document.querySelector('#address-region') as HTMLInputElement | null)?.value === 'PT',
      undefined,
      WAIT,
    )
    noErrors(page)
  })

  it('Escape closes the list, a second Escape clears the text; a click chooses', async () => {
    const page = await openPage(harness, 'ac-escape')
    const input = field(page)
    await input.fill('Amphitheatre Park')
    await options(page).first().waitFor(WAIT)
    await input.press('Escape')
    expect(await listState(page)).toMatchObject({ expanded: 'false', listVisible: false, active: null })
    expect(await input.inputValue()).toBe('Amphitheatre Park')
    await input.press('Escape')
    expect(await input.inputValue()).toBe('')

    await input.fill('Amphitheatre Park')
    const option = options(page).first()
    await option.waitFor(WAIT)
    const main = await option.locator('strong').textContent()
    await option.click()
    expect(await input.inputValue()).toBe(main)
    await page.getByTestId('did-you-mean').waitFor(WAIT)
    noErrors(page)
  })

  it('a typed address the service corrects: "No suggestions", Enter validates, the fixes are highlighted, Use this takes them', async () => {
    const page = await openPage(harness, 'ac-fixed')
    const input = field(page)
    await page.getByLabel('Locality').fill('mountain view')
    await page.getByLabel('Postal code').fill('')
    await page.getByLabel('Region (ISO code)').fill('US')
    // The street's alias in lower case: the validator knows it (and corrects the case); autocomplete
    // does not suggest it ("pkwy" does not start a word of "Amphitheatre Parkway").
    await input.fill('1600 amphitheatre pkwy')
    await announces(page, /^No suggestions$/)
    expect((await listState(page)).expanded).toBe('false')
    await input.press('Enter') // no active option: the form's submit, what was typed

    const result = page.getByTestId('address-result')
    await page.getByTestId('did-you-mean').filter({ hasText: 'Did you mean this address?' }).waitFor(WAIT)
    const marked = await result.getByTestId('corrected').allTextContents()
    expect(marked).toEqual(['1600 Amphitheatre Pkwy', 'Mountain View'])
    // Only the case differs: a change to see, worded as what it is (issue 44, row 7).
    expect(await result.textContent()).toContain('reformatted from “1600 amphitheatre pkwy”')
    expect(await result.textContent()).toContain('reformatted from “mountain view”')
    expect(await result.getByTestId('address-summary').textContent()).toBe('1 part to fix, 2 changes to review') // no postal code
    await result.getByRole('button', { name: 'Use this' }).click()
    await page.getByTestId('address-note').filter({ hasText: 'The checked address is in the fields.' }).waitFor(WAIT)
    expect(await input.inputValue()).toBe('1600 Amphitheatre Pkwy')
    expect(await page.getByLabel('Locality').inputValue()).toBe('Mountain View')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('address-line') // not lost with the buttons
    noErrors(page)
  })

  it('a failed suggestion request is said as a sentence (not silent); the quota hint is a polite status', async () => {
    const page = await openPage(harness, 'ac-offline')
    const input = field(page)
    expect(await page.getByTestId('autocomplete-degraded').getAttribute('role')).toBe('status')
    await page.route(/\/maps\/v1\/places(:|%3A)autocomplete/i, (route) => route.abort('internetdisconnected'))
    await input.fill('Mountain View')
    const error = page.getByTestId('autocomplete-error')
    await error.getByRole('alert').filter({ hasText: 'could not be reached' }).waitFor(WAIT)
    expect((await input.getAttribute('aria-describedby'))?.split(' ')).toContain(
      await error.getByRole('alert').getAttribute('id'),
    )
  })

  it('at 360 px: the open list fits (nothing scrolls sideways), axe passes, the keyboard still chooses', async () => {
    const width = 360
    const page = await openPage(harness, 'ac-narrow', { width, height: 740 })
    const input = field(page)
    await input.fill(ADDRESS)
    const option = options(page).filter({ hasText: '1600 Amphitheatre Parkway' }).first()
    await option.waitFor(WAIT)
    await announces(page, /^\d+ suggestions?$/)
    const list = page.getByRole('listbox', { name: 'Address suggestions' })
    const box = (await list.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(width)
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(sideways).toBeLessThanOrEqual(4)
    expect(await list.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true)
    expect(await axeFindings(page)).toEqual([])
    await input.press('ArrowDown')
    await page.screenshot({ path: join(SHOTS, 'autocomplete-360.png') }) // the open list, one option active

    await input.press('Enter')
    expect(await input.inputValue()).toBe('1600 Amphitheatre Parkway')
    await page.getByTestId('did-you-mean').waitFor(WAIT)
    noErrors(page)
  })
})
