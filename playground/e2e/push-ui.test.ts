// Push in the inbox (issue 47), on the development build: the agent's notification control says
// why it cannot work here (no service worker in a development build) rather than offering a
// button that fails; the dev control of the emulator's recorded deliveries opens from the
// keyboard and lists a delivery once one happens (a customer with no tab open gets an agent's
// reply, sent to an endpoint that refuses, so it is recorded as failed); axe at 1100 and 360 px.
import { createECDH, randomBytes } from 'node:crypto'
import { PUSH } from '@tandem/contract'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { axeFindings, DESKTOP, hasChromium, ready, useHarness, WAIT, type TestPage } from './harness.js'

const b64url = (b: Buffer) => b.toString('base64url')

async function token(url: string, who: string): Promise<string> {
  const res = await fetch(`${url}/api/tandem-token?${who}`, { method: 'POST' })
  expect(res.status).toBe(200)
  return ((await res.json()) as { token: string }).token
}

async function call(url: string, bearer: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300)
  return text ? JSON.parse(text) : null
}

/** Opens the support inbox at `width` and waits for its list. */
async function inbox(
  open: (path: string, v?: { width: number; height: number }) => Promise<TestPage>,
  width: number,
): Promise<TestPage> {
  const page = await open(`/?user=agent-push-${width}#support`, { width, height: 800 })
  await ready(page)
  await page.getByTestId('conversation').first().waitFor(WAIT)
  return page
}

/** Moves focus forward with Tab until `testId`'s element (or what is inside it) has it. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab')
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return
  }
  throw new Error(`Tab never reached ${selector}`)
}

describe.skipIf(!hasChromium)('push in the inbox', () => {
  const harness = useHarness()

  for (const width of [DESKTOP.width, 360]) {
    it(`at ${width} px: the control explains itself, the dev list opens by keyboard, axe finds nothing serious`, async () => {
      const page = await inbox(harness.open, width)
      const control = page.getByTestId('push-control')
      await control.waitFor(WAIT)
      // A development build registers no service worker: no button that could only fail.
      await page.locator('[data-testid="push-control"][data-status="unsupported"]').waitFor(WAIT)
      expect(await control.getByRole('status').textContent()).toMatch(/cannot show notifications/)
      expect(await control.getByRole('button').count()).toBe(0)

      await page.getByRole('button', { name: '+ New conversation' }).focus()
      await tabTo(page, '[data-testid="push-deliveries"] summary')
      await page.keyboard.press('Enter')
      const list = page.getByTestId('push-deliveries')
      await list
        .getByRole('status')
        .filter({ hasText: /deliver/ })
        .waitFor(WAIT)
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
        'push-deliveries-refresh',
      )
      expect(await axeFindings(page, '#panel-support')).toEqual([])
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }))
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
      expect(page.errors).toEqual([])
    })
  }

  it('the dev list shows a delivery after one happens, without keys or the endpoint’s path', async () => {
    const page = await inbox(harness.open, DESKTOP.width)
    const list = page.getByTestId('push-deliveries')
    await list.locator('summary').click()
    await list
      .getByRole('status')
      .filter({ hasText: /deliver/ })
      .waitFor(WAIT)

    // A customer (no tab open: REST only) writes, subscribes an endpoint nothing answers on, and an agent replies.
    const customer = await token(harness.url, 'customer=e2e-push-cara')
    const agent = await token(harness.url, 'user=agent-push')
    const started = (await call(harness.url, customer, 'POST', '/support/v1/me/conversations', {
      text: 'Where is my order?',
    })) as { id: string }
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const secretPath = `/push/secret-${b64url(randomBytes(8))}`
    await call(harness.url, customer, 'POST', '/realtime/v1/push/subscriptions', {
      endpoint: `https://127.0.0.1:9${secretPath}`,
      keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(randomBytes(16)) },
    })
    await call(harness.url, agent, 'POST', `/support/v1/conversations/${started.id}/reply`, {
      text: 'On its way.',
    })

    // Recorded at once as pending; after the grace period the emulator sends it and the endpoint
    // refuses (nothing listens on port 9): failed. The open list asks every 2 s.
    await list.locator('[data-testid="push-delivery"][data-status="pending"]').waitFor(WAIT)
    const row = list.locator('[data-testid="push-delivery"][data-status="failed"]')
    await row.waitFor({ timeout: WAIT.timeout + PUSH.graceMs })
    const text = (await row.textContent()) ?? ''
    expect(text).toContain('customer')
    expect(text).toContain('e2e-push-cara')
    expect(text).toContain('https://127.0.0.1:9')
    expect(text).not.toContain(secretPath)
    expect(text).not.toContain(b64url(ecdh.getPublicKey()))
    expect(page.errors).toEqual([])
  })
})
