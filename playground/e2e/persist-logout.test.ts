// A logout holds in every tab (issue 44, row 3), in Chromium: two real tabs of one user share their
// storage, locks and channels; the user logs out in one, and the other, whose lists would refetch
// (focus, new conversations arriving live), must write nothing back, end its connection and show
// that it was signed out. IndexedDB is read from the page; sockets are the browser's own events.
import { createClient } from '@tandem/core'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { axeFindings, hasChromium, useHarness, WAIT } from './harness.js'
import { cacheSaved, stored } from './stored.js'

const REALTIME = /\/realtime\/v1\/ws/
const RUN = Date.now().toString(36)
/** How long nothing may come back after the logout: a "must not happen" window, so a fixed one. */
const WATCH_MS = 10_000
/** How often IndexedDB is read meanwhile. */
const POLL_MS = 250

interface SocketSeen {
  page: Page
  closed?: number
}

describe.skipIf(!hasChromium)('a logout holds in every tab, in Chromium', () => {
  const harness = useHarness()

  it('Log out in one tab: the other writes nothing back for 10 s, closes its socket and says it was signed out', async () => {
    const user = `e2e-out-${RUN}`
    const tabs = await harness.context()
    const sockets: SocketSeen[] = []
    tabs.context.on('page', (p) =>
      p.on('websocket', (ws) => {
        if (!REALTIME.test(ws.url())) return
        const seen: SocketSeen = { page: p }
        sockets.push(seen)
        ws.on('close', () => (seen.closed = Date.now()))
      }),
    )
    // B first: it leads, so it holds the user's one socket, and A (which logs out) follows.
    const b = await tabs.open(`/?user=${user}#support`)
    await b.getByTestId('conversation').first().waitFor(WAIT)
    const a = await tabs.open(`/?user=${user}#support`)
    await a.getByTestId('conversation').first().waitFor(WAIT)
    await cacheSaved(b, user)
    for (const p of [a, b])
      await p.waitForFunction(
        () => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'connected',
        undefined,
        WAIT,
      )
    // B holds the user's one open socket (a busy machine may have had it reconnect meanwhile).
    expect(sockets.filter((s) => s.closed === undefined).map((s) => s.page)).toEqual([b])

    await Promise.all([a.waitForURL((u) => u.searchParams.get('user') !== user), a.getByTestId('log-out').click()])
    const loggedOut = Date.now()
    await expect.poll(() => stored(b, `user:${user}:`), WAIT).toEqual({})

    // For 10 s, B is given every reason to refetch and save: focus, and a new conversation each second.
    const api = createClient({
      baseUrl: harness.url,
      auth: { url: `${harness.url}/api/tandem-token?user=e2e-out-api-${RUN}` },
    })
    const mailboxId = (await api.support.mailboxes.list()).data[0]!.id
    const back: { at: number; keys: string[] }[] = []
    const start = Date.now()
    for (let i = 0; Date.now() - start < WATCH_MS; i++) {
      if (i % 4 === 0) {
        await b.evaluate(() => window.dispatchEvent(new Event('focus')))
        await api.support.conversations.create({
          mailboxId,
          subject: `After the logout ${RUN} #${i / 4}`,
          customer: { email: 'after@example.com', name: 'After Logout' },
          text: 'Is anyone there?',
        })
      }
      const keys = Object.keys(await stored(b, `user:${user}:`))
      if (keys.length) back.push({ at: Date.now() - loggedOut, keys })
      await b.waitForTimeout(POLL_MS) // the observation period's pace, never a result
    }
    if (back.length)
      console.log(`persist-logout: ${back[0]!.keys.join(', ')} written again ${back[0]!.at} ms after the logout`)
    expect(back).toEqual([])

    // B says so, from a page of its own: focus on its heading (announced), sign-in again a Tab away.
    const signedOut = b.getByTestId('signed-out')
    await signedOut.waitFor(WAIT)
    expect(await signedOut.getByRole('heading', { level: 1 }).textContent()).toBe('You were signed out in another tab')
    expect(await b.evaluate(() => document.activeElement?.id)).toBe('signed-out-title')
    expect(await b.getByTestId('conversation').count()).toBe(0)
    // Its socket (the user's one, as the leader) is closed, and none was opened again.
    expect(sockets.filter((s) => s.page === b && s.closed === undefined)).toEqual([])
    expect(await axeFindings(b)).toEqual([])
    await b.setViewportSize({ width: 360, height: 740 })
    expect(await b.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    expect(await axeFindings(b)).toEqual([])
    await b.keyboard.press('Tab')
    expect(await b.evaluate(() => document.activeElement?.textContent)).toBe('Sign in again')
    await Promise.all([b.waitForEvent('load'), b.keyboard.press('Enter')])
    await b.getByTestId('user').waitFor(WAIT)
    expect(await b.getByTestId('user').textContent()).toBe(user)
    expect(b.errors).toEqual([])
  })
})
