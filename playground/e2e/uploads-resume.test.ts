// A customer's upload survives a reload (issue 48): a 3 MB screenshot goes up on a throttled
// connection, the page reloads once the service holds half of it, and after the reload the durable
// outbox resumes the file from the offset the service holds (real Chromium, real IndexedDB), sends
// the message once every byte is there, and the service applies it once. The bytes the service read
// twice are counted (`received` beyond the file's size): at most the one chunk cut by the reload.
import { UPLOADS } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import {
  acknowledged,
  attachInMessenger,
  composer,
  customerPage,
  messenger,
  openMessenger,
  png,
  sha256,
  startConversation,
  throttle,
  uploadState,
} from './files.js'
import { hasChromium, useHarness, WAIT } from './harness.js'

describe.skipIf(!hasChromium)('an upload across a reload', () => {
  const harness = useHarness()

  it('resumes from the offset the service holds, re-sends at most one chunk, and the message appears once', async () => {
    const subject = `Resume ${Date.now()}`
    const file = png(1024, 1024, { noise: true }) // ~3 MiB: six chunks
    const page = await customerPage(harness.open, 'e2e-resume')
    await openMessenger(page)
    await startConversation(page, subject)

    // A slow uplink (~6 s for the file): the reload lands while a PATCH is on its way.
    const cdp = await page.context().newCDPSession(page)
    await throttle(cdp, 512 * 1024)
    const half = acknowledged(page, file.length, 0.45)
    await attachInMessenger(page, [{ name: 'screenshot.png', mimeType: 'image/png', buffer: file }])
    await composer(page).fill('Here is the screenshot')
    await composer(page).press('Enter')
    const id = await half

    // The service holds about half (three chunks of six): reload now, in the middle of the next one.
    const before = await uploadState(harness.url, id)
    expect(before.upload?.complete).toBe(false)
    // The message's write, whenever the outbox sends it after the reload (listened for first).
    const applied = page.waitForResponse(
      (r) => r.request().method() === 'POST' && /\/me\/conversations\/[^/]+\/messages$/.test(r.url()) && r.ok(),
      WAIT,
    )
    await page.reload()
    await throttle(cdp, null) // back to a good connection: the rest goes at once
    // The outbox resumes by itself (no click): the message reaches the service, with its file.
    await applied
    const after = await uploadState(harness.url, id)
    expect(after.upload).toMatchObject({ size: file.length, offset: file.length, complete: true })
    expect(after.sha256).toBe(sha256(file))
    // Resumed, not restarted: what was sent twice is at most the chunk the reload cut.
    expect(after.received).toBeGreaterThanOrEqual(file.length)
    console.info(
      `[uploads] reload at ${before.upload?.offset} of ${file.length} bytes: ${after.received - file.length} bytes sent again (one chunk: ${UPLOADS.chunkBytes})`,
    )
    expect(after.received - file.length).toBeLessThanOrEqual(UPLOADS.chunkBytes)

    // Once: the thread shows the message one time, with its picture.
    await openMessenger(page)
    await messenger(page).getByText(subject).first().click()
    const sent = messenger(page).locator('.msg.mine', { hasText: 'Here is the screenshot' })
    await sent.waitFor(WAIT)
    expect(await sent.count()).toBe(1)
    expect(page.errors).toEqual([])
  })
})
