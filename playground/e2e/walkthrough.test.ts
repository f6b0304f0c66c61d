// The walk-through of issue 19, replayed in Chromium: each bug a person found, and one new SDK
// capability each (the query hook, the rate-limit wait made visible, a live list that reorders).
import { createClient } from '@tandem/core'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { hasChromium, ready, useHarness, WAIT } from './harness.js'

const title = (page: Page) => page.getByTestId('results-title').textContent()
const countLog = (page: Page, pattern: string) =>
  page.$$eval(
    '[data-testid="event-log"] .log-text',
    (els, p) => els.filter((e) => e.textContent?.includes(p)).length,
    pattern,
  )
const mapView = (page: Page) => page.getByTestId('world-map').getAttribute('data-view')
/** Waits until the map shows the service's answer for the view on screen (not the last one kept meanwhile). */
const mapReady = (page: Page, view: 'world' | 'fitted') =>
  page.locator(`[data-testid="world-map"][data-view="${view}"][data-ready="true"]`).waitFor(WAIT)

describe.skipIf(!hasChromium)('the playground walk-through', () => {
  const harness = useHarness()

  it('Enter right after typing geocodes, and the pending typing search never replaces it', async () => {
    const page = await harness.open('/?user=walk-enter#maps')
    const search = page.getByLabel('Place or address')
    // Searches as the browser sends them (the event log writes its line when the answer comes: a
    // typing search sent before Enter may land after it, on a busy machine).
    let searches = 0
    page.on('request', (r) => void (r.url().includes('/maps/v1/places') && searches++))
    await search.pressSequentially('Porto, Portugal')
    // Keys slower than 250 ms apart (or a slow step to Enter) may start a typing search before
    // Enter: only searches sent after it count.
    await search.press('Enter')
    const before = searches
    await page.getByTestId('results-title').filter({ hasText: 'Geocoded “Porto, Portugal”' }).waitFor(WAIT)
    // The bug was a timer firing late (the typing search, 250 ms after the last key): wait on the
    // page's own clock until well past that deadline, then check that nothing replaced the answer.
    const t0 = await page.evaluate(() => performance.now())
    await page.waitForFunction((t) => performance.now() > t + 1000, t0, WAIT)
    expect(await title(page)).toBe('Geocoded “Porto, Portugal”')
    expect(await page.getByTestId('place-results').locator('li').count()).toBeGreaterThan(0)
    expect(searches).toBe(before)

    // A blank Enter says so and leaves no old results behind.
    await search.fill('')
    await search.press('Enter')
    await page.getByTestId('search-blank').waitFor(WAIT)
    expect(await page.getByTestId('place-results').locator('li').count()).toBe(0)
    expect(page.errors).toEqual([])
  })

  it('the map comes from getMapView through useQuery: a looked-up point does not re-fit it, "Whole world" resets it, coordinates work from the keyboard', async () => {
    const page = await harness.open('/?user=walk-map#maps')
    await mapReady(page, 'world')
    expect(await page.locator('[data-country]').count()).toBeGreaterThan(150)

    await page.getByLabel('Place or address').fill('Lisbon')
    await page.getByRole('button', { name: 'From Lisbon', exact: true }).first().click()
    await mapReady(page, 'fitted')
    await page.getByRole('button', { name: 'Whole world' }).click()
    await mapReady(page, 'world')
    const views = await countLog(page, 'GET /maps/v1/views')
    expect(views).toBe(2) // the world, then the box around Lisbon; the world again came from the cache

    // A click on the map: the point is looked up, the view stays where the user aimed.
    const box = (await page.getByTestId('world-map').boundingBox())!
    await page.mouse.click(box.x + box.width * 0.1, box.y + box.height * 0.5) // the Pacific
    await page
      .getByTestId('results-title')
      .filter({ hasText: /^(Near|Nothing near)/ })
      .waitFor(WAIT)
    expect(await mapView(page)).toBe('world')
    await page.getByRole('button', { name: 'Zoom to the stops' }).click()
    await mapReady(page, 'fitted') // at once, from the cache: the next assertion fails if it asked again
    expect(await countLog(page, 'GET /maps/v1/views')).toBe(views)

    // The keyboard's way: coordinates, Enter.
    await page.getByLabel('Latitude').fill('38.72')
    await page.getByLabel('Longitude').fill('-9.14')
    await page.getByLabel('Longitude').press('Enter')
    await page.getByTestId('results-title').filter({ hasText: 'Near 38.72, -9.14' }).waitFor(WAIT)
    expect(await page.getByTestId('place-results').locator('li').count()).toBeGreaterThan(0)
    expect(page.errors).toEqual([])
  })

  it('a rate-limited search shows the busy banner while the SDK waits, then the results', async () => {
    const page = await harness.open('/?user=walk-busy#maps')
    await mapReady(page, 'world') // the map's own request is done: the next maps request is the search
    await page.getByTestId('simulate-429').click()
    await page.getByText('the next maps request gets a 429').waitFor(WAIT)
    await page.getByLabel('Place or address').fill('Berlin')
    await page.getByTestId('rate-limit-busy').waitFor(WAIT)
    expect(await page.getByTestId('rate-limit-busy').textContent()).toMatch(/Busy: 1 request waiting .* about \d s/)
    await page.getByTestId('results-title').filter({ hasText: 'Places matching “Berlin”' }).waitFor(WAIT)
    await page.getByTestId('rate-limit-busy').waitFor({ state: 'detached', ...WAIT })
    expect(await countLog(page, '429')).toBeGreaterThan(0)
    // The browser logs the refused request itself; nothing else may fail.
    expect(page.errors.filter((e) => !e.includes('status of 429'))).toEqual([])
  })

  it('a reply with "then: close" closes for that reply only: the next one reopens; the keyboard reaches the reply box in a few Tabs', async () => {
    const page = await harness.open('/?user=walk-reply#support')
    await ready(page)
    const row = page.locator('[data-testid="conversation"]').first()
    await row.click()
    await page.getByTestId('conversation-view').waitFor(WAIT)
    // Focus moved to the conversation's title: the reply box is a few Tabs away, not 18.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H2', undefined, WAIT)
    let tabs = 0
    while (tabs < 6 && (await page.evaluate(() => document.activeElement?.id)) !== 'reply-text') {
      await page.keyboard.press('Tab')
      tabs++
    }
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('reply-text')
    expect(tabs).toBeLessThanOrEqual(5)

    const status = page.getByTestId('conversation-status')
    const then = page.getByLabel('then')
    await page.getByLabel('Reply').fill('Solved, closing.')
    await then.selectOption('closed')
    await page.getByRole('button', { name: 'Send reply' }).click()
    await status.filter({ hasText: 'closed' }).waitFor(WAIT)
    expect(await then.inputValue()).toBe('') // the choice does not stick
    expect(await page.getByLabel('Reply').getAttribute('placeholder')).toBe('A reply reopens the conversation…')

    await page.getByLabel('Reply').fill('One more thing.')
    await page.getByRole('button', { name: 'Send reply' }).click()
    await status.filter({ hasText: 'active' }).waitFor(WAIT)
    expect(page.errors).toEqual([])
  })

  it('a live list reorders: a reply elsewhere moves the conversation to the top of every open list', async () => {
    const page = await harness.open('/?user=walk-live#support')
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="conversation"]').length === 15,
      undefined,
      WAIT,
    )
    await page.getByTestId('live-badge').filter({ hasText: '● live' }).waitFor(WAIT)
    const seventh = (await page.locator('[data-testid="conversation"]').nth(6).getAttribute('data-id'))!
    const { url } = harness
    const api = createClient({ baseUrl: url, auth: { url: `${url}/api/tandem-token?user=walk-api` } })
    await api.support.conversations.reply(seventh, { text: 'Any news?' })
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid="conversation"]')?.getAttribute('data-id') === id,
      seventh,
      WAIT,
    )
    // The list still equals the service's answer: same ids, same order.
    const fresh = await api.support.conversations.list({ limit: 15 })
    const shown = await page.$$eval('[data-testid="conversation"]', (els) =>
      els.map((e) => (e as HTMLElement).dataset.id),
    )
    expect(shown).toEqual(fresh.data.map((c) => c.id))
    expect(page.errors).toEqual([])
  })

  it('"New conversation" takes the focus, and a refusal goes away once the field is edited', async () => {
    const page = await harness.open('/?user=walk-new#support')
    await ready(page)
    await page.getByRole('button', { name: '+ New conversation' }).click()
    await page.waitForFunction(() => document.activeElement?.closest('.new-conversation') !== null, undefined, WAIT)
    const email = page.getByLabel('Email')
    await email.fill('kim@example') // the browser accepts it; the SDK's check does not
    await page.getByRole('button', { name: 'Create' }).click()
    const refusal = page.locator('.new-conversation [role="alert"]')
    await refusal.waitFor(WAIT)
    // A sentence a person reads, on the field it is about; the SDK's line is in the disclosure.
    expect(await refusal.textContent()).toBe('Check the customer’s email address, such as kim@example.com.')
    expect(await email.getAttribute('aria-invalid')).toBe('true')
    expect(await email.getAttribute('aria-describedby')).toBe(await refusal.getAttribute('id'))
    expect(await page.getByLabel('Subject').getAttribute('aria-invalid')).toBeNull()
    expect(await page.locator('.new-conversation .error-technical').textContent()).toMatch(/customer\.email/)
    await email.fill('kim@example.com')
    await refusal.waitFor({ state: 'detached', ...WAIT })
    expect(await email.getAttribute('aria-invalid')).toBeNull()
    expect(page.errors).toEqual([])
  })
})
