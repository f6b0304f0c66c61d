// "Did you mean" says one thing (issue 44, row 7). For Rua Augusta 1 / Lisbon / 1100053 / PT the
// service reformats the postal code (1100-053): the step once showed "no fixes needed" beside
// "corrected from '1100053' — fixed". Now the summary and the list are one account of the check,
// at 1280 and 360 px, and axe-core finds nothing serious in it.
import { describe, expect, it } from 'vitest'
import { axeFindings, hasChromium, useHarness, WAIT } from './harness.js'

describe.skipIf(!hasChromium)('the did-you-mean summary matches its list (issue 44)', () => {
  const harness = useHarness()

  it.each([1280, 360])('at %i px: one summary, and it counts the rows the list shows changed', async (width) => {
    const page = await harness.open(`/?user=dym-${width}#maps`, { width, height: 800 })
    await page.getByRole('combobox', { name: 'Address line' }).fill('Rua Augusta 1')
    await page.getByLabel('Locality').fill('Lisbon')
    await page.getByLabel('Postal code').fill('1100053')
    await page.getByLabel('Region (ISO code)').fill('PT')
    await page.getByRole('button', { name: 'Validate' }).click()
    const result = page.getByTestId('address-result')
    await result.filter({ hasText: '1100-053' }).waitFor(WAIT)

    // Nothing says there is nothing to see while a row shows a change.
    expect(await result.textContent()).not.toMatch(/no fixes needed|all confirmed/i)
    const summary = result.getByTestId('address-summary')
    expect(await summary.count()).toBe(1)
    expect(await summary.textContent()).toBe('1 change to review')
    expect(await page.getByTestId('did-you-mean').textContent()).toBe('Did you mean this address?')
    // The rows: the postal code is the one change, worded as the summary counts it.
    const rows = await result
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')))
    expect(rows).toEqual([
      ['Address line', 'Rua Augusta 1', 'confirmed'],
      ['Locality', 'Lisbon', 'confirmed'],
      ['Postal code', '1100-053reformatted from “1100053”', 'reformatted'],
      ['Country', 'Portugal', 'confirmed'],
    ])
    const changed = rows.filter(([, , verdict]) => verdict === 'reformatted' || verdict === 'corrected')
    expect(await summary.getAttribute('data-changes')).toBe(String(changed.length))
    expect(await summary.getAttribute('data-to-fix')).toBe('0')

    expect(await axeFindings(page, '[data-testid="address-result"]')).toEqual([])
    expect(await axeFindings(page)).toEqual([])
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(sideways).toBeLessThanOrEqual(4)
    expect(page.errors).toEqual([])
  })
})
