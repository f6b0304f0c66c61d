// The chat under stress (issue 25): 10,000 messages with a light page, a hidden panel that does no
// work, the reader's place kept, history paged back, right-to-left text, presence while offline.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { keystrokeProbe, type KeystrokeFigures } from '../../bench/src/keystroke-probe.mjs'
import { DESKTOP, hasChromium, PHONE, ready, useHarness, WAIT, type TestPage } from './harness.js'
import { slack } from '../../test/utils/wait.js'

/**
 * Wall time is not asserted in `npm test`, which runs beside other work on 2 cores (a busy run
 * measured a keystroke p95 of 174 ms where the bench on a quiet machine measures 3–15 ms). The figures are measured
 * here and printed; `npm run bench -- chat` records them against the targets (bench/RESULTS.md);
 * `CHAT_PERF_SLACK=1 npx vitest run --project e2e chat` asserts the targets (times the factor) on a
 * quiet machine. What holds however busy the machine is, is asserted always: the list's render
 * count (a React Profiler, dev only) does not move for a keystroke or while the chat is hidden, and
 * the DOM stays small. The chat as it was fails both (every keystroke rendered every row).
 */
const SLACK = process.env.CHAT_PERF_SLACK ? Number(process.env.CHAT_PERF_SLACK) : undefined
const TARGET = { keystrokeP95Ms: 16, longTaskMs: 50, domElements: 3_000 }

const count = (page: Page) => page.getByTestId('messages').evaluate((el) => Number((el as HTMLElement).dataset.count))
/** Commits in which the chat's list rendered (MessageList's dev-only Profiler). */
const listCommits = (page: Page) =>
  page.evaluate(() => (window as unknown as { __chatListCommits?: number }).__chatListCommits ?? 0)
/** The newest message on screen: the last row's offset. */
const newest = (page: Page) =>
  page.evaluate(() =>
    Number(document.querySelector('[data-testid="message"]:last-child')?.getAttribute('data-offset') ?? 0),
  )
const untilNewest = (page: Page, offset: number, timeout = WAIT.timeout) =>
  page.waitForFunction(
    (o) => Number(document.querySelector('[data-testid="message"]:last-child')?.getAttribute('data-offset')) >= o,
    offset,
    { timeout },
  )
/** The newest offset the page's channel received (written outside React, so also while hidden). */
const untilReceived = (page: Page, offset: number, timeout = WAIT.timeout) =>
  page.waitForFunction(
    (o) => Number(document.querySelector<HTMLElement>('[data-testid="messages"]')?.dataset.received) >= o,
    offset,
    { timeout },
  )
/** How far the chat's list is from its bottom, in px (0: the newest message in view). */
const fromBottom = (page: Page) =>
  page.getByTestId('messages').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)

describe.skipIf(!hasChromium)('the chat under stress', () => {
  const harness = useHarness()
  const flood = async (count: number, rate = 0) => {
    const res = await fetch(`${harness.url}/api/dev/flood?user=e2e-flood&count=${count}&rate=${rate}`, {
      method: 'POST',
    })
    expect(res.status).toBe(202)
  }
  const open = async (path: string, viewport = DESKTOP): Promise<TestPage> => {
    const page = await harness.open(path, viewport)
    await ready(page)
    return page
  }

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])(
    'on %s: first shown from another tab it opens at the newest; a reader who scrolled up stays put; history pages back to the first',
    async (_, viewport) => {
      const user = `e2e-read-${viewport.width}`
      await flood(300)
      const page = await open(`/?user=${user}#maps`, viewport)
      await page.getByRole('tab', { name: 'Chat' }).click()
      await page.locator('[data-testid="messages"][data-history="loaded"]').waitFor(WAIT)
      await page.locator('[data-testid="message"]:last-child', { hasText: 'flood #300 of 300' }).waitFor(WAIT)
      expect(await fromBottom(page)).toBeLessThan(2)
      // Only the newest 50 came with the page: the rest is history. Every message so far is a `message`.
      expect(await count(page)).toBe(50)
      const last = await newest(page)

      // Scrolled up, new messages leave the reader where they are and are counted on a button.
      await page.getByTestId('messages').evaluate((el) => (el.scrollTop = 0))
      await page.locator('[data-testid="messages"][data-following="false"]').waitFor(WAIT)
      const top = await page.getByTestId('messages').evaluate((el) => el.scrollTop)
      await flood(5)
      await page.getByTestId('new-messages').filter({ hasText: '5 newer messages' }).waitFor(WAIT)
      expect(await page.getByTestId('messages').evaluate((el) => el.scrollTop)).toBe(top)
      await page.getByTestId('new-messages').click()
      await page.locator('[data-testid="messages"][data-following="true"]').waitFor(WAIT)
      await page.waitForFunction(
        () => {
          const el = document.querySelector('[data-testid="messages"]')!
          return el.scrollHeight - el.scrollTop - el.clientHeight < 2
        },
        undefined,
        WAIT,
      )

      // Load earlier, from the keyboard, until the channel's first message: every offset once, in order.
      const earlier = page.getByTestId('load-earlier')
      await earlier.focus()
      const firstShown = () =>
        page.evaluate(() => Number(document.querySelector('[data-testid="message"]')?.getAttribute('data-offset')))
      for (let i = 0; i < 40 && (await earlier.count()); i++) {
        const first = await firstShown()
        await page.keyboard.press('Enter')
        // One page further back (from memory or from history), or the end: then no button.
        await page.waitForFunction(
          (first) => {
            const button = document.querySelector('[data-testid="load-earlier"]')
            const now = Number(document.querySelector('[data-testid="message"]')?.getAttribute('data-offset'))
            return !button || (now < first && button.getAttribute('aria-disabled') !== 'true')
          },
          first,
          WAIT,
        )
      }
      expect(await firstShown()).toBe(1)
      expect(await earlier.count()).toBe(0)
      expect(await count(page)).toBe(last + 5) // offsets 1 to the newest, each once
      // Focus did not fall to the page when the button went.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('messages')
      expect(page.errors).toEqual([])
    },
  )

  it('right-to-left text: chat messages, support threads and every message input take their direction from their text', async () => {
    const page = await open('/?user=e2e-rtl#chat')
    const input = page.getByLabel('Message')
    expect(await input.getAttribute('dir')).toBe('auto')
    await input.fill('שלום, עולם!')
    expect(await input.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl')
    await input.press('Enter')
    const text = page.locator('[data-testid="message"] .message-text', { hasText: 'שלום, עולם!' })
    await text.waitFor(WAIT)
    expect(await text.getAttribute('dir')).toBe('auto')
    expect(await text.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl')
    // Its punctuation ends the line on the left, where a right-to-left reader ends it.
    expect(await text.evaluate((el) => getComputedStyle(el).textAlign)).toMatch(/start|right/)

    // The support inbox's reply box and threads, and the vanilla page's input, do the same.
    await page.getByRole('tab', { name: 'Support inbox' }).click()
    await page.locator('[data-testid="conversation"]').first().click()
    const reply = page.getByLabel('Reply')
    expect(await reply.getAttribute('dir')).toBe('auto')
    await reply.fill('مرحبا، كيف حالك؟')
    await page.getByRole('button', { name: 'Send reply' }).click()
    // The stored reply, not its optimistic copy (that row is replaced when the service answers).
    const thread = page.locator('[data-testid="thread"]:not(.sending) .thread-text', { hasText: 'مرحبا، كيف حالك؟' })
    await thread.waitFor(WAIT)
    expect(await thread.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl')
    const vanilla = await harness.open('/vanilla.html?user=e2e-rtl-v')
    expect(await vanilla.getByLabel('Message').getAttribute('dir')).toBe('auto')
    expect(page.errors.concat(vanilla.errors)).toEqual([])
  })

  it('offline, presence does not claim who is online; the chat header is one line on a 360 px phone', async () => {
    const [a, b] = await Promise.all([open('/?user=e2e-pres-a#chat'), open('/?user=e2e-pres-b#chat')])
    // Both are listed (pages of earlier tests may be too: they stay open until the file ends).
    await a.locator('[data-testid="member"][data-client="e2e-pres-b"]').waitFor(WAIT)
    await a.getByTestId('online-count').waitFor(WAIT)
    await a.context().setOffline(true)
    await a.locator('[data-testid="connection-state"]:not([data-state="connected"])').first().waitFor(WAIT)
    await a.getByTestId('presence-stale').waitFor(WAIT)
    expect(await a.getByTestId('online-count').count()).toBe(0)
    await a.context().setOffline(false)
    await a.getByTestId('online-count').waitFor(WAIT)
    await b.close()

    const phone = await open('/?user=e2e-narrow#chat', { width: 360, height: 740 })
    const head = phone.locator('.chat-head')
    const [h2, counts] = await Promise.all([
      head.locator('h2').boundingBox(),
      phone.getByTestId('chat-counts').boundingBox(),
    ])
    // One row: the name and the counts side by side, not stacked.
    expect(Math.abs(h2!.y + h2!.height / 2 - (counts!.y + counts!.height / 2))).toBeLessThan(6)
    expect(a.errors.concat(phone.errors)).toEqual([])
  })
  it(
    '10,000 messages: the DOM stays small, a keystroke or a hidden chat renders none of the list while 20 a second arrive, nothing lost or doubled',
    async () => {
      const page = await harness.open('/?user=e2e-big#chat')
      await page.evaluate(keystrokeProbe)
      await page.locator('[data-testid="messages"][data-history="loaded"]').waitFor(WAIT)
      await ready(page)
      const base = await newest(page)
      // The dev-only button floods 1,000; the other 9,000 come from the same endpoint.
      await page.getByTestId('flood').click()
      await page.getByTestId('control-result').filter({ hasText: 'publishing 1,000' }).waitFor(WAIT)
      await flood(9_000)
      await untilReceived(page, base + 10_000, Math.max(90_000, slack(60_000)))
      await untilNewest(page, base + 10_000)
      expect(await count(page)).toBe(10_000) // the log's bound: the oldest went as the newest came
      expect(await fromBottom(page)).toBeLessThan(2) // it followed the flood
      const dom = await page.evaluate(() => document.getElementsByTagName('*').length)
      expect(dom).toBeLessThan(TARGET.domElements)

      // A keystroke renders the input, never the list.
      const input = page.getByLabel('Message')
      await input.click()
      const commits = await listCommits(page)
      await input.pressSequentially('no list render', { delay: 20 })
      expect(await listCommits(page)).toBe(commits)
      await input.fill('')

      // Type while 20 messages a second arrive.
      await page.evaluate(() => {
        const probe = (window as unknown as { __keystrokes: KeystrokeFigures }).__keystrokes
        probe.keys = []
        probe.longTasks = []
      })
      await flood(80, 20)
      await input.pressSequentially('typing while the chat fills up', { delay: 80 })
      await untilNewest(page, base + 10_080)
      const m = await page.evaluate(() => (window as unknown as { __keystrokes: KeystrokeFigures }).__keystrokes)
      const keys = [...m.keys].sort((a, b) => a - b)
      expect(keys.length).toBe('typing while the chat fills up'.length)
      const p95 = keys[Math.ceil(keys.length * 0.95) - 1]!
      const longest = Math.max(0, ...m.longTasks.map((t) => t.duration))
      console.log(
        `[chat] 10,000 messages: keystroke p95 ${p95.toFixed(1)} ms, longest task ${longest.toFixed(0)} ms, DOM ${dom}`,
      )
      if (SLACK !== undefined) {
        expect(p95, `keystroke p95 ${p95.toFixed(1)} ms`).toBeLessThanOrEqual(TARGET.keystrokeP95Ms * SLACK)
        expect(longest, `long tasks ${m.longTasks.map((t) => t.duration).join(', ')}`).toBeLessThanOrEqual(
          TARGET.longTaskMs * SLACK,
        )
      }
      expect(await page.getByTestId('lost').textContent()).toBe('0 lost')
      expect(await page.getByTestId('duplicates').textContent()).toBe('0 duplicated')

      // Hidden behind another panel, 1,000 more change nothing in the chat's DOM; shown again, all are there.
      await page.getByRole('tab', { name: 'Maps' }).click()
      // The tab changes on `hashchange`, a task after the click: the commit that hides the chat
      // (its last) is in only once the tab reads as selected.
      await page.locator('#tab-maps[aria-selected="true"]').waitFor(WAIT)
      const hiddenCommits = await listCommits(page)
      await page.evaluate(() => {
        const w = window as unknown as { __mutations: number }
        w.__mutations = 0
        new MutationObserver((list) => void (w.__mutations += list.length)).observe(
          document.querySelector('[data-testid="messages"]')!,
          { childList: true, subtree: true, characterData: true },
        )
      })
      await flood(1_000)
      // They reach the page (its channel marks the offset) while the panel renders nothing: two
      // animation frames after the last, when the list would have shown it.
      await untilReceived(page, base + 11_080)
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
      expect(await page.evaluate(() => (window as unknown as { __mutations: number }).__mutations)).toBe(0)
      expect(await listCommits(page)).toBe(hiddenCommits)
      await page.getByRole('tab', { name: 'Chat' }).click()
      await untilNewest(page, base + 11_080)
      expect(await fromBottom(page)).toBeLessThan(2)
      expect(await page.getByTestId('lost').textContent()).toBe('0 lost')
      expect(await page.getByTestId('duplicates').textContent()).toBe('0 duplicated')
      expect(page.errors).toEqual([])
    },
    Math.max(150_000, slack(100_000)),
  ) // 10,000 messages reach a page on a busy 2-core machine in 10–90 s
})
