// The "Done when" (issue 48), as a person does it: a customer on a phone-width window sends
// a screenshot on a flaky connection (slow, then cut for a moment), reloads in the middle, and the
// agent receives it once, with a thumbnail; the agent replies with a PDF, which the customer
// downloads: the bytes saved are the PDF's.
import { readFile } from 'node:fs/promises'
import type { Download, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  acknowledged,
  attachInMessenger,
  composer,
  customerPage,
  messenger,
  openConversation,
  openMessenger,
  pdf,
  PHONE_360,
  png,
  startConversation,
  throttle,
} from './files.js'
import { hasChromium, ready, useHarness, WAIT } from './harness.js'

/** The next download of `page` or of a page it opens (a link with target=_blank). */
function nextDownload(page: Page): Promise<Download> {
  const context = page.context()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no download in ${WAIT.timeout} ms`)), WAIT.timeout)
    const done = (d: Download) => {
      clearTimeout(timer)
      resolve(d)
    }
    page.once('download', done)
    context.once('page', (p) => p.once('download', done))
  })
}

describe.skipIf(!hasChromium)('files, end to end', () => {
  const harness = useHarness()

  it('a screenshot sent from a phone on a flaky connection, across a reload, reaches the agent once with a thumbnail; the PDF answer downloads', async () => {
    const subject = `The export fails ${Date.now()}`
    const screenshot = png(720, 1280, { noise: true }) // a phone's screen: ~2.6 MB
    const invoice = pdf()
    const agent = await harness.open('/?user=agent-files#support')
    await ready(agent)
    const customer = await customerPage(harness.open, 'e2e-phone', PHONE_360)
    await openMessenger(customer)
    await startConversation(customer, subject)
    await agent.getByTestId('conversation').filter({ hasText: subject }).waitFor(WAIT)
    await openConversation(agent, subject)

    // A train's connection: slow, and cut for a moment once the first piece is through.
    const cdp = await customer.context().newCDPSession(customer)
    await throttle(cdp, 384 * 1024)
    const started = acknowledged(customer, screenshot.length, 0.1)
    await attachInMessenger(customer, [{ name: 'screenshot.png', mimeType: 'image/png', buffer: screenshot }])
    await composer(customer).fill('This is what I see')
    await composer(customer).press('Enter')
    await started
    const cut = customer.waitForEvent('requestfailed', { ...WAIT, predicate: (r) => r.method() === 'PATCH' })
    await throttle(cdp, 384 * 1024, true)
    await cut
    // Back (still slow): the outbox's retry resumes it; the customer reloads half-way.
    const half = acknowledged(customer, screenshot.length, 0.5)
    await throttle(cdp, 384 * 1024)
    await half
    await customer.reload()
    await throttle(cdp, null)

    // The agent's inbox: the message once, with the picture as a thumbnail of its own size.
    const thumb = agent.getByTestId('attachment-image').locator('img')
    await thumb.waitFor(WAIT)
    await agent.waitForFunction(
      () => {
        const img = document.querySelector<HTMLImageElement>('[data-testid="attachment-image"] img')
        return img?.complete && img.naturalWidth > 0
      },
      undefined,
      WAIT,
    )
    expect(await thumb.count()).toBe(1)
    expect(await agent.getByTestId('thread').filter({ hasText: 'This is what I see' }).count()).toBe(1)
    expect(await thumb.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([720, 1280])
    expect(await thumb.getAttribute('alt')).toBe('Image: screenshot.png')

    // The agent answers with the invoice (chosen through the Attach button's input).
    await agent.getByTestId('reply-file-input').setInputFiles({
      name: 'invoice.pdf',
      mimeType: 'application/pdf',
      buffer: invoice,
    })
    await agent.getByTestId('chosen-files').filter({ hasText: 'invoice.pdf' }).waitFor(WAIT)
    await agent.locator('#reply-text').fill('Your invoice, corrected')
    await agent.getByRole('button', { name: 'Send reply' }).click()
    await agent.getByTestId('attachment-file').filter({ hasText: 'invoice.pdf' }).waitFor(WAIT)

    // The customer downloads it from the messenger, on the phone: the saved bytes are the PDF's.
    await openMessenger(customer)
    await messenger(customer).getByText(subject).first().click()
    const link = messenger(customer).getByRole('link', { name: /invoice\.pdf/ })
    await link.waitFor(WAIT)
    // The thread is loaded (the answer is in it): the customer's own message is there once.
    expect(await messenger(customer).locator('.msg.mine', { hasText: 'This is what I see' }).count()).toBe(1)
    const download = nextDownload(customer)
    await link.click()
    const saved = await (await download).path()
    expect(Buffer.compare(await readFile(saved), invoice)).toBe(0)
    expect(agent.errors).toEqual([])
    // The cut's own line (the browser's, of the PATCH it failed) is the only one.
    expect(customer.errors.filter((e) => e !== 'Failed to load resource: net::ERR_INTERNET_DISCONNECTED')).toEqual([])
  })
})
