// deadline-test: the second, an agent's reply on the customer's page within 1 s (scaled by the load factor).
// The customer's page and the agent inbox, together (issue 29): a customer's first message
// reaches the inbox live; an agent's reply reaches the customer within a second, once, across a
// dropped connection and a reload; the unread badge agrees in two tabs of the customer.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { slack } from '../../test/utils/wait.js'
import { hasChromium, ready, useHarness, WAIT, type TestPage } from './harness.js'

const messenger = (page: Page) => page.locator('tandem-messenger')
const launcher = (page: Page) => messenger(page).locator('button.launcher')
const badge = (page: Page) => messenger(page).locator('.badge')
/** The messages of the open thread, in order, as the customer reads them. */
const thread = (page: Page) => messenger(page).locator('.msg').allTextContents()

async function openMessenger(page: Page): Promise<void> {
  await launcher(page).click()
  await messenger(page).locator('[role=dialog]:not([hidden])').waitFor(WAIT)
}

/** The customer writes their first message (a new conversation) from the open messenger. */
async function startConversation(page: Page, text: string): Promise<void> {
  await messenger(page).getByRole('button', { name: 'New conversation' }).click()
  const composer = messenger(page).locator('textarea')
  await composer.fill(text)
  await composer.press('Enter')
  await messenger(page).locator('.msg.mine', { hasText: text }).waitFor(WAIT)
}

/** The agent opens the customer's conversation (found by its subject) and replies. */
async function agentReply(agent: Page, subject: string, text: string): Promise<number> {
  const row = agent.getByTestId('conversation').filter({ hasText: subject })
  if (!(await agent.getByTestId('conversation-view').filter({ hasText: subject }).count())) {
    await row.click()
    await agent.getByTestId('conversation-view').filter({ hasText: subject }).waitFor(WAIT)
  }
  await agent.locator('#reply-text').fill(text)
  const sent = Date.now()
  await agent.getByRole('button', { name: 'Send reply' }).click()
  return sent
}

async function customerPage(open: (path: string) => Promise<TestPage>, customer: string): Promise<TestPage> {
  const page = await open(`/customer.html?customer=${customer}`)
  await launcher(page).waitFor(WAIT)
  await page.locator('#state[data-state="connected"]').waitFor(WAIT)
  return page
}

describe.skipIf(!hasChromium)('the customer and the agent', () => {
  const harness = useHarness()

  it("a customer's first message appears in the inbox live; the reply arrives within a second, once, across a drop and a reload", async () => {
    const subject = `My parcel never came ${Date.now()}`
    const agent = await harness.open('/?user=agent-e2e#support')
    await ready(agent)
    await agent.getByTestId('conversation').first().waitFor(WAIT)
    const customer = await customerPage(harness.open, 'e2e-cara')

    await openMessenger(customer)
    await startConversation(customer, subject)
    // Live: the inbox was not reloaded.
    await agent.getByTestId('conversation').filter({ hasText: subject }).waitFor(WAIT)

    const sent = await agentReply(agent, subject, 'Sorry! Looking into it now.')
    await messenger(customer).locator('.msg:not(.mine)', { hasText: 'Sorry! Looking into it now.' }).waitFor(WAIT)
    // A deadline test: the second, with the scheduling margin of a busy machine.
    expect(Date.now() - sent).toBeLessThanOrEqual(slack(1_000))

    // The customer's connection drops (no close frame); a reply written meanwhile still comes, once.
    // Every state the badge shows is recorded in the page: on a busy machine the reconnect can be
    // quicker than a poll from here, and a missed 'reconnecting' is not a missed drop.
    await customer.locator('#state').evaluate((el) => {
      const seen: string[] = ((window as unknown as { __states: string[] }).__states = [])
      new MutationObserver(() => seen.push(el.getAttribute('data-state') ?? '')).observe(el, {
        attributeFilter: ['data-state'],
      })
    })
    await customer.locator('#drop').click()
    await customer.waitForFunction(
      () => (window as unknown as { __states: string[] }).__states.some((s) => s !== 'connected'),
      undefined,
      WAIT,
    )
    await agentReply(agent, subject, 'Found it: it ships today.')
    await messenger(customer).locator('.msg:not(.mine)', { hasText: 'Found it: it ships today.' }).waitFor(WAIT)
    await customer.locator('#state[data-state="connected"]').waitFor(WAIT)
    const expected = [subject, 'Sorry! Looking into it now.', 'Found it: it ships today.']
    expect((await thread(customer)).filter((t) => expected.some((e) => t.includes(e)))).toHaveLength(3)

    // A reply while the page reloads: after it, every message once, in order.
    const reloaded = customer.reload()
    await agentReply(agent, subject, 'Tracking number: 42.')
    await reloaded
    await openMessenger(customer)
    await messenger(customer).getByText(subject).first().click()
    await messenger(customer).locator('.msg', { hasText: 'Tracking number: 42.' }).waitFor(WAIT)
    const texts = await thread(customer)
    const order = [...expected, 'Tracking number: 42.'].map((e) => texts.findIndex((t) => t.includes(e)))
    expect(order.every((i, n) => i >= 0 && (n === 0 || i > order[n - 1]!))).toBe(true)
    expect(texts).toHaveLength(4)
    expect(agent.errors).toEqual([])
    expect(customer.errors).toEqual([])
  })

  it('the unread badge is right in two tabs of the customer', async () => {
    const subject = `Two tabs ${Date.now()}`
    const agent = await harness.open('/?user=agent-tabs#support')
    await ready(agent)
    const { open } = await harness.context()
    const one = await customerPage(open, 'e2e-tabs')
    const two = await customerPage(open, 'e2e-tabs')

    await openMessenger(one)
    await startConversation(one, subject)
    await launcher(one).click() // closed: replies count on the badge
    await agent.getByTestId('conversation').filter({ hasText: subject }).waitFor(WAIT)
    await agentReply(agent, subject, 'First answer')
    await agentReply(agent, subject, 'Second answer')
    for (const page of [one, two]) {
      await badge(page).filter({ hasText: /^2$/ }).waitFor(WAIT)
      expect(await badge(page).getAttribute('aria-label')).toBe('2 unread messages')
    }

    // Reading in one tab clears the badge in the other.
    await openMessenger(one)
    await messenger(one).getByText(subject).first().click()
    await messenger(one).locator('.msg', { hasText: 'Second answer' }).waitFor(WAIT)
    await badge(two).waitFor({ ...WAIT, state: 'hidden' })
    expect(one.errors).toEqual([])
    expect(two.errors).toEqual([])
  })
})
