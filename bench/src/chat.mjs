// The playground's chat under load, in headless Chromium against the playground's own dev server
// (the embedded emulator): what a keystroke costs and how long the main thread is blocked while
// 20 messages a second arrive, after 1,000 and after 10,000 messages, and the DOM's size.
//
// A keystroke's cost and the long tasks are measured in the page (keystroke-probe.mjs).
// The messages come from the dev server's `POST /api/dev/flood` (emulator-side publishes).
import { existsSync, readFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { createServer } from 'vite'
import { bounded, CHROMIUM, CHROMIUM_ARGS, skipped } from './chromium.mjs'
import { keystrokeProbe } from './keystroke-probe.mjs'
import { fmt, table } from './stats.mjs'

const TITLE = 'The playground chat under load (Chromium, keystrokes while 20 messages/s arrive)'
const STAGES = (process.env.CHAT_BENCH_STAGES ?? '1000,10000').split(',').map(Number)
const TYPED = 'The quick brown fox jumps over the lazy dog, then types a little more to be sure.'
const KEY_DELAY_MS = 80
const LIVE_RATE = 20
/** How long a stage may take to show its messages before it is reported as not reached. */
const SHOW_TIMEOUT_MS = Number(process.env.CHAT_BENCH_SHOW_TIMEOUT_MS ?? 240_000)
const GOAL = { keystrokeP95Ms: 16, longTaskMs: 50, domElements: 3_000 }
/**
 * The chat as it was (before issue 25), measured once by this script against a checkout of that
 * commit (the file says how): appended to this run's figures, so RESULTS.md shows before and after.
 */
const BEFORE = new URL('../chat-before.md', import.meta.url)

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]

/** The newest message on screen: its offset (the chat as it was and as it is both mark rows so). */
async function newestShown(page) {
  return page.evaluate(() => {
    const rows = document.querySelectorAll('[data-testid="message"]')
    return Number(rows[rows.length - 1]?.getAttribute('data-offset') ?? 0)
  })
}

async function untilShown(page, offset) {
  const deadline = performance.now() + SHOW_TIMEOUT_MS
  for (;;) {
    const shown = await bounded(newestShown(page), 'chat: reading the newest offset', 60_000).catch(() => -1)
    if (shown >= offset) return { reached: true, shown }
    if (performance.now() > deadline) return { reached: false, shown }
    await new Promise((r) => setTimeout(r, 250))
  }
}

export async function run() {
  if (!existsSync(CHROMIUM)) return skipped(TITLE)
  const server = await createServer({
    // CHAT_BENCH_PLAYGROUND: another checkout's playground (a "before" figure from an older commit).
    configFile: `${process.env.CHAT_BENCH_PLAYGROUND ?? new URL('../../playground', import.meta.url).pathname}/vite.config.ts`,
    logLevel: 'warn',
    server: { port: 0, host: '127.0.0.1' },
  })
  let browser
  try {
    await server.listen()
    const origin = server.resolvedUrls.local[0].replace(/\/$/, '')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } })
    await page.addInitScript(keystrokeProbe)
    await page.goto(`${origin}/?user=bench#chat`)
    await page.waitForSelector('[data-testid="connection-state"][data-state="connected"]', { timeout: 30_000 })
    await page.waitForSelector('[data-testid="messages"][data-history="loaded"]', { timeout: 30_000 })
    const flood = (count, rate) =>
      fetch(`${origin}/api/dev/flood?user=bench&count=${count}&rate=${rate}`, { method: 'POST' }).then((r) => {
        if (!r.ok) throw new Error(`flood: ${r.status}`)
      })
    const input = page.getByLabel('Message')

    const rows = []
    let total = 0
    const base = await newestShown(page) // the channel's offset before: a fresh dev server starts at 0
    for (const stage of STAGES) {
      await flood(stage - total, 0)
      const shown = await untilShown(page, base + stage)
      total = stage
      // 20 messages a second for as long as the typing lasts, and a little more.
      const typingMs = TYPED.length * KEY_DELAY_MS
      const live = Math.ceil(((typingMs + 1000) / 1000) * LIVE_RATE)
      await input.click()
      await page.evaluate(() => {
        window.__keystrokes.keys = []
        window.__keystrokes.from = performance.now()
      })
      await flood(live, LIVE_RATE)
      await input.pressSequentially(TYPED, { delay: KEY_DELAY_MS, timeout: 900_000 })
      total += live
      await untilShown(page, base + total)
      const m = await bounded(
        page.evaluate(() => {
          const b = window.__keystrokes
          const tasks = b.longTasks.filter((t) => t.start >= b.from)
          return {
            keys: b.keys,
            longTasks: tasks.length,
            longest: Math.max(0, ...tasks.map((t) => t.duration)),
            blockedMs: tasks.reduce((s, t) => s + t.duration, 0),
            spanMs: performance.now() - b.from,
            dom: document.getElementsByTagName('*').length,
          }
        }),
        'chat: reading the measurements',
        120_000,
      )
      await input.fill('', { timeout: 300_000 })
      const keys = [...m.keys].sort((a, b) => a - b)
      rows.push([
        `${stage.toLocaleString('en-US')}${shown.reached ? '' : ` (not reached: message ${(shown.shown - base).toLocaleString('en-US')} shown after ${SHOW_TIMEOUT_MS / 1000} s)`}`,
        String(keys.length),
        fmt(quantile(keys, 0.5), 1),
        `**${fmt(quantile(keys, 0.95), 1)}**`,
        fmt(keys[keys.length - 1] ?? 0, 1),
        String(m.longTasks),
        `**${fmt(m.longest)}**`,
        `${fmt((m.blockedMs / m.spanMs) * 100)} %`,
        `**${m.dom.toLocaleString('en-US')}**`,
      ])
      console.log(`chat: ${stage} messages measured`)
    }

    // The chat hidden: another panel shown while 1,000 more arrive costs the page no long task.
    await page.getByRole('tab', { name: 'Maps' }).click()
    await page.evaluate(() => (window.__keystrokes.from = performance.now()))
    await flood(1_000, 0)
    // A hidden panel need not count on screen: give the messages 3 s of the page's time to arrive.
    await page.waitForFunction(
      (from) => performance.now() > from + 3000,
      await page.evaluate(() => window.__keystrokes.from),
    )
    const h = await page.evaluate(() => {
      const b = window.__keystrokes
      const tasks = b.longTasks.filter((t) => t.start >= b.from)
      return { longTasks: tasks.length, longest: Math.max(0, ...tasks.map((t) => t.duration)) }
    })
    await page.getByRole('tab', { name: 'Chat' }).click()
    const hidden = await untilShown(page, base + total + 1_000)

    return {
      title: TITLE,
      body:
        table(
          [
            'messages in the chat',
            'keystrokes',
            'keystroke p50 ms',
            'keystroke p95 ms',
            'max ms',
            'long tasks',
            'longest ms',
            'main thread blocked',
            'DOM elements',
          ],
          rows,
        ) +
        `\n\nGoals (issue 25): keystroke p95 ≤ ${GOAL.keystrokeP95Ms} ms and no long task over ${GOAL.longTaskMs} ms while ${LIVE_RATE} messages/s arrive, after 10,000 messages; the DOM under ${GOAL.domElements.toLocaleString('en-US')} elements.` +
        ` A keystroke's cost runs from its keydown's timestamp to the end of its handlers, React's render and a forced style and layout (not the paint); ${TYPED.length} characters typed ${KEY_DELAY_MS} ms apart.` +
        ` With the chat hidden behind another panel, 1,000 more messages arrived at once: ${h.longTasks} long tasks, the longest ${fmt(h.longest)} ms (shown again, the chat ${hidden.reached ? 'showed the newest' : `had reached message ${(hidden.shown - base).toLocaleString('en-US')}`}).` +
        ` Chromium ${browser.version()} (headless), the playground's dev server (Vite, the embedded emulator), ${process.env.CHAT_BENCH_LABEL ?? 'this commit'}.` +
        (!process.env.CHAT_BENCH_PLAYGROUND && existsSync(BEFORE) ? `\n\n${readFileSync(BEFORE, 'utf8').trim()}` : ''),
    }
  } finally {
    await browser?.close().catch(() => {})
    await server.close()
  }
}
