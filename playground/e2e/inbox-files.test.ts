// The inbox's side of complete conversations (issue 48): the customer's typing shows in the agent's
// open conversation and stops when the customer stops (or lapses once their page is gone); "Seen"
// follows the customer's markRead in their own page, live; and the attach flow (chosen files, a
// refusal said, a reply's progress) is axe-clean at desktop width and at 360 px, its targets 24 px or more.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  composer,
  customerPage,
  launcher,
  messenger,
  openConversation,
  openMessenger,
  PHONE_360,
  png,
  startConversation,
  throttle,
} from './files.js'
import { axeFindings, DESKTOP, hasChromium, ready, useHarness, WAIT } from './harness.js'
import { targets } from './measure.js'

/** The agent replies in the open conversation and waits for the reply to be on the list (applied). */
async function reply(agent: Page, text: string): Promise<void> {
  await agent.locator('#reply-text').fill(text)
  await agent.getByRole('button', { name: 'Send reply' }).click()
  await agent.locator('[data-testid="thread"][data-thread]', { hasText: text }).waitFor(WAIT)
}

/** The thread row "Seen" is under (waited for), by its text. */
const seenUnder = (agent: Page, text: string) =>
  agent.locator('[data-testid="thread"]', { hasText: text }).getByTestId('seen').waitFor(WAIT)

/** axe finds nothing serious at each width, and at phone width every target is 24 px or more. */
async function cleanAt(agent: Page, sizes: { width: number; height: number }[]): Promise<void> {
  for (const size of sizes) {
    await agent.setViewportSize(size)
    expect(await axeFindings(agent), `axe at ${size.width} px`).toEqual([])
    if (size.width > PHONE_360.width) continue
    const small = (await targets(agent)).filter((t) => t.width < 24 || t.height < 24)
    expect(small, `targets under 24 px at ${size.width} px`).toEqual([])
  }
}

describe.skipIf(!hasChromium)('the inbox: customer typing, "Seen", the attach flow', () => {
  const harness = useHarness()

  it('shows the customer typing and stops; "Seen" follows the customer reading in their page', async () => {
    const subject = `Typing and seen ${Date.now()}`
    const agent = await harness.open('/?user=agent-seen#support')
    await ready(agent)
    const customer = await customerPage(harness.open, 'e2e-reader')
    await openMessenger(customer)
    await startConversation(customer, subject)
    await agent.getByTestId('conversation').filter({ hasText: subject }).waitFor(WAIT)
    await openConversation(agent, subject)
    const typing = agent.getByTestId('customer-typing')
    expect(await typing.getAttribute('aria-live')).toBe('polite')
    expect(await typing.textContent()).toBe('')

    // The customer types: the agent is told who; the customer empties the box: it stops.
    await composer(customer).pressSequentially('Also, the')
    await typing.filter({ hasText: /^E2e Reader is typing…$/ }).waitFor(WAIT)
    // Not an agent: the agents' own typing line stays empty.
    expect(await agent.getByTestId('agent-typing').textContent()).toBe('')
    await composer(customer).fill('')
    await typing.filter({ hasText: /^$/ }).waitFor({ ...WAIT, state: 'attached' })

    // The customer reads the thread open in their page: the agent's reply is "Seen" at once.
    await reply(agent, 'First answer')
    await seenUnder(agent, 'First answer')
    // Closed messenger: a second answer is not read, "Seen" stays under the first.
    await launcher(customer).click()
    await messenger(customer)
      .locator('[role=dialog]')
      .waitFor({ ...WAIT, state: 'hidden' })
    await reply(agent, 'Second answer')
    await messenger(customer).locator('.badge').filter({ hasText: /^1$/ }).waitFor(WAIT)
    expect(await agent.getByTestId('seen').count()).toBe(1)
    await seenUnder(agent, 'First answer')
    // The customer opens it: "Seen" moves to the second answer, live (no reload of the inbox).
    await openMessenger(customer)
    await messenger(customer).getByText(subject).first().click()
    await seenUnder(agent, 'Second answer')
    expect(await agent.getByTestId('seen').count()).toBe(1)
    expect(customer.errors).toEqual([])

    // The customer types and their page goes away (nothing says "stopped"): the service lets it
    // lapse (CUSTOMER_TYPING_TTL_MS), and the agent's line empties by itself.
    await composer(customer).pressSequentially('One more')
    await typing.filter({ hasText: /^E2e Reader is typing…$/ }).waitFor(WAIT)
    await customer.close()
    await typing.filter({ hasText: /^$/ }).waitFor({ ...WAIT, state: 'attached' })
    expect(agent.errors).toEqual([])
  })

  it('the attach flow is axe-clean at desktop width and at 360 px', async () => {
    const agent = await harness.open('/?user=agent-axe#support')
    await ready(agent)
    await agent.getByTestId('conversation').first().click()
    await agent.getByTestId('conversation-view').waitFor(WAIT)

    // Three files chosen, two refused by core's check (no such type; a name longer than the service
    // keeps): a chip with its remove button, the refusals said at once, not after a send.
    await agent.getByTestId('reply-file-input').setInputFiles([
      { name: 'screen.png', mimeType: 'image/png', buffer: png(64, 48) },
      { name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') },
      { name: `${'n'.repeat(296)}.txt`, mimeType: 'text/plain', buffer: Buffer.from('hi') },
    ])
    await agent.getByTestId('chosen-files').filter({ hasText: 'screen.png' }).waitFor(WAIT)
    await agent.getByTestId('file-notice').filter({ hasText: 'setup.exe' }).waitFor(WAIT)
    await agent.getByTestId('file-notice').filter({ hasText: 'longer than 255 characters' }).waitFor(WAIT)
    expect(await agent.getByTestId('chosen-files').locator('li').count()).toBe(1)
    expect(await agent.getByTestId('file-notice').getAttribute('role')).toBe('status')
    await cleanAt(agent, [DESKTOP, PHONE_360])

    // Sent on a slow uplink: the held reply shows its progress bar and Cancel while it goes.
    await agent.setViewportSize(DESKTOP)
    const cdp = await agent.context().newCDPSession(agent)
    await throttle(cdp, 64 * 1024)
    await agent
      .getByTestId('reply-file-input')
      .setInputFiles([{ name: 'big.png', mimeType: 'image/png', buffer: png(512, 512, { noise: true }) }])
    await agent.locator('#reply-text').fill('With a picture')
    await agent.getByRole('button', { name: 'Send reply' }).click()
    const progress = agent.locator('[data-testid="upload-progress"][data-status="uploading"]')
    await progress.waitFor(WAIT)
    expect(await progress.getByRole('progressbar', { name: 'Uploading 2 files' }).count()).toBe(1)
    await cleanAt(agent, [DESKTOP, PHONE_360])

    // Cancel: the reply and its uploads are gone; focus is not lost to the body.
    await progress.getByRole('button', { name: 'Cancel this reply and its upload' }).click()
    await agent.getByTestId('upload-progress').waitFor({ ...WAIT, state: 'detached' })
    expect(await agent.evaluate(() => document.activeElement?.id)).toBe('reply-text')
    expect(await agent.getByTestId('reply-error').count()).toBe(0)
    await throttle(cdp, null)
    expect(await agent.locator('[data-testid="thread"]', { hasText: 'With a picture' }).count()).toBe(0)
    expect(agent.errors).toEqual([])
  })
})
