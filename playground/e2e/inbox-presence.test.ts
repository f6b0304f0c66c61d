// Two agents in the support inbox (issue 29 §5): one opens a conversation, the other sees it on the
// list row (one collection presence for the list) and in the conversation, and sees the lock; a
// claim on a held lock says it waits, and gaining the lock is announced (issue 44 row 5).
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { axeFindings, hasChromium, ready, useHarness, WAIT } from './harness.js'

const firstRow = (page: Page) => page.getByTestId('conversation').first()

describe.skipIf(!hasChromium)('inbox presence', () => {
  const harness = useHarness()

  it("an agent sees who else has a conversation open, who types, and the other's lock", async () => {
    const ada = await harness.open('/?user=agent-ada#support')
    const bob = await harness.open('/?user=agent-bob#support')
    await Promise.all([ready(ada), ready(bob)])
    await firstRow(ada).waitFor(WAIT)
    await firstRow(bob).waitFor(WAIT)
    const id = await firstRow(ada).getAttribute('data-id')
    const row = (page: Page) => page.locator(`[data-testid="conversation"][data-id="${id}"]`)

    await row(ada).click()
    await ada.getByTestId('conversation-view').waitFor(WAIT)
    // Bob's list row has the badge, from the one collection presence of the list.
    await row(bob).getByTestId('viewer-badge').filter({ hasText: '1' }).waitFor(WAIT)
    expect(await row(bob).getByTestId('viewer-badge').getAttribute('title')).toBe('Viewed by agent-ada')

    await row(bob).click()
    await bob.getByTestId('also-viewing').filter({ hasText: 'Also viewing: agent-ada' }).waitFor(WAIT)
    await ada.getByTestId('also-viewing').filter({ hasText: 'Also viewing: agent-bob' }).waitFor(WAIT)

    // Ada types: Bob is told, politely.
    await ada.locator('#reply-text').pressSequentially('On it')
    await bob.getByTestId('agent-typing').filter({ hasText: 'agent-ada is typing' }).waitFor(WAIT)
    expect(await bob.getByTestId('agent-typing').getAttribute('aria-live')).toBe('polite')

    // Ada locks: Bob sees who holds it and until when; his reply box warns but does not block.
    await ada.getByRole('button', { name: 'Lock', exact: true }).click()
    await ada
      .getByTestId('lock-holder')
      .filter({ hasText: /^Locked by you until \d\d:\d\d$/ })
      .waitFor(WAIT)
    await bob
      .getByTestId('lock-holder')
      .filter({ hasText: /^Locked by agent-ada until \d\d:\d\d$/ })
      .waitFor(WAIT)
    await bob.getByTestId('reply-locked').waitFor(WAIT)
    expect(await bob.locator('#reply-text').isEditable()).toBe(true)

    // Bob clicks Lock while Ada holds it: his claim waits, and he is told who holds it, until when,
    // and that he is next; his button now withdraws the claim.
    await bob.getByRole('button', { name: 'Lock', exact: true }).click()
    const waiting = /^Locked by agent-ada until \d\d:\d\d — you're next$/
    await bob.getByTestId('lock-holder').filter({ hasText: waiting }).waitFor(WAIT)
    await bob.getByTestId('lock-news').filter({ hasText: waiting }).waitFor(WAIT)
    expect(await bob.getByTestId('lock-news').getAttribute('aria-live')).toBe('polite')
    await bob.getByRole('button', { name: 'Stop waiting', exact: true }).waitFor(WAIT)
    expect(await axeFindings(bob)).toEqual([])

    // Ada unlocks: Bob's waiting claim holds the lock, and he is told so.
    await ada.getByRole('button', { name: 'Unlock', exact: true }).click()
    await bob
      .getByTestId('lock-news')
      .filter({ hasText: /^You now hold the lock$/ })
      .waitFor(WAIT)
    await bob
      .getByTestId('lock-holder')
      .filter({ hasText: /^Locked by you until \d\d:\d\d$/ })
      .waitFor(WAIT)
    await ada
      .getByTestId('lock-holder')
      .filter({ hasText: /^Locked by agent-bob until \d\d:\d\d$/ })
      .waitFor(WAIT)

    // Bob unlocks, Ada closes: Bob's view and row forget her.
    await bob.getByRole('button', { name: 'Unlock', exact: true }).click()
    await ada.getByTestId('lock-holder').waitFor({ ...WAIT, state: 'detached' })
    await ada.getByRole('button', { name: 'Close the conversation' }).click()
    await bob.getByTestId('also-viewing').waitFor({ ...WAIT, state: 'detached' })
    expect(ada.errors).toEqual([])
    expect(bob.errors).toEqual([])
  })
})
