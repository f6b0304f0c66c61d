// The chat under stress (issue 25): 10,000 messages with a light page, a hidden panel that does no
// work, the reader's place kept, history paged back, right-to-left text, presence while offline.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { keystrokeProbe, type KeystrokeFigures } from '../../bench/src/keystroke-probe.mjs'
import { axeFindings, DESKTOP, hasChromium, PHONE, ready, useHarness, WAIT, type TestPage } from './harness.js'
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
/**
 * The row at the top of the chat's view (the first whose bottom is below the list's top edge), or
 * the row `id`: its id, its offset, and its top from the list's top edge in px.
 */
const rowAt = (page: Page, id?: string) =>
  page.getByTestId('messages').evaluate((el, id) => {
    const edge = el.getBoundingClientRect().top
    const row = [...el.querySelectorAll<HTMLElement>('[data-testid="message"]')].find((r) =>
      id === undefined ? r.getBoundingClientRect().bottom > edge : r.dataset.id === id,
    )
    if (!row) return undefined
    return {
      id: row.dataset.id,
      offset: Number(row.dataset.offset),
      top: row.getBoundingClientRect().top - edge,
    }
  }, id)
/**
 * From now on, what React's development build does for each commit, counted in the page: it logs
 * every component it rendered whose props changed, with a diff of those props (its performance
 * tracks: a `performance.measure` whose `detail.devtools.properties` lists the diff's lines). A
 * prop that holds a whole list of 10,000 messages whose items all moved by one (the log at its
 * cap) costs it a hundred lines, each a message diffed in depth, in every frame.
 */
const countDevWork = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __devWork: { measures: number; lines: number; rows: number } }
    w.__devWork = { measures: 0, lines: 0, rows: 0 }
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const lines = (e as PerformanceMeasure).detail?.devtools?.properties as unknown[] | undefined
        if (!lines) continue
        w.__devWork.measures++
        w.__devWork.lines += lines.length
      }
    }).observe({ type: 'measure' })
    // Rows added to or removed from the list's DOM.
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of [...r.addedNodes, ...r.removedNodes])
          if (n instanceof HTMLElement && n.dataset.testid === 'message') w.__devWork.rows++
    }).observe(document.querySelector('[data-testid="messages"]')!, { childList: true, subtree: true })
  })
const devWork = (page: Page) =>
  page.evaluate(() => (window as unknown as { __devWork: { measures: number; lines: number; rows: number } }).__devWork)
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
      await countDevWork(page)
      await flood(80, 20)
      await input.pressSequentially('typing while the chat fills up', { delay: 80 })
      await untilNewest(page, base + 10_080)
      // What each message that arrived at the cap cost React's development build, counted (issue 44,
      // row 1): the lines of props it diffed (a list that passed the whole log as a prop: about 900
      // per message), and the rows it added to or removed from the DOM (one in, one out on average:
      // the window slides a chunk at a time).
      const work = await devWork(page)
      console.log(
        `[chat] at the cap, per message: ${(work.lines / 80).toFixed(1)} lines of props diffed, ${(work.rows / 80).toFixed(1)} rows touched (${work.measures} components logged)`,
      )
      expect(work.measures).toBeGreaterThan(0) // the count itself works: React logged the renders
      expect(work.lines / 80).toBeLessThanOrEqual(30)
      expect(work.rows / 80).toBeLessThanOrEqual(4)
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

  it.each([
    ['1280 px', { width: 1280, height: 800 }],
    ['360 px', { width: 360, height: 740 }],
  ])(
    'at %s, "Load earlier messages" keeps the reader\'s place: the top message stays where it was, focus stays, the new rows are announced',
    async (_, viewport) => {
      await flood(300) // enough history for the pages back, whatever the earlier tests left
      const page = await open(`/?user=e2e-anchor-${viewport.width}#chat`, viewport)
      await page.locator('[data-testid="messages"][data-history="loaded"]').waitFor(WAIT)
      const last = await newest(page)
      // Live messages while following: more are held than the window shows, so the first page back
      // comes from memory, and the later ones from the service's history.
      await flood(150)
      await untilNewest(page, last + 150)
      const button = page.getByTestId('load-earlier')
      for (let i = 0; i < 3; i++) {
        // The case: the reader scrolled to the top, the button in view.
        await page.getByTestId('messages').evaluate((el) => (el.scrollTop = 0))
        await page.locator('[data-testid="messages"][data-following="false"]').waitFor(WAIT)
        const before = (await rowAt(page))!
        const first = await page.evaluate(() =>
          Number(document.querySelector('[data-testid="message"]')?.getAttribute('data-offset')),
        )
        await button.click()
        // The rows came: the first one is older, and nothing is loading any more.
        await page.waitForFunction(
          (first) => {
            const button = document.querySelector('[data-testid="load-earlier"]')
            const now = Number(document.querySelector('[data-testid="message"]')?.getAttribute('data-offset'))
            return now < first && button?.getAttribute('aria-disabled') !== 'true'
          },
          first,
          WAIT,
        )
        // The message that was at the top is at the same place on screen, to the pixel a scroll
        // position can take (the unfixed list showed the oldest loaded there, `scrollTop` 0, and
        // this one 100 rows further down).
        const after = (await rowAt(page, before.id))!
        expect({ ...after, top: 0 }).toEqual({ ...before, top: 0 })
        expect(
          Math.abs(after.top - before.top),
          `top ${before.top} px before, ${after.top} px after`,
        ).toBeLessThanOrEqual(1)
        expect(await page.getByTestId('messages').evaluate((el) => el.scrollTop)).toBeGreaterThan(0)
        // The keyboard's place is kept too, and a screen reader hears what came.
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('load-earlier')
        await page
          .getByTestId('chat-list-status')
          .filter({ hasText: /^[\d,]+ earlier messages? loaded$/ })
          .waitFor(WAIT)
        expect(await page.getByTestId('chat-list-status').getAttribute('aria-live')).toBe('polite')
      }
      expect(await axeFindings(page)).toEqual([])
      expect(page.errors).toEqual([])
    },
    Math.max(120_000, slack(60_000)),
  )
})
