// The playground's chat under load, in headless Chromium, on the playground's own dev server (Vite,
// React's development build: what `npm run dev` serves) and on its production build (`vite build`,
// served by `vite preview`), both with the embedded emulator: what a keystroke costs, how long until
// the frame that shows it, and how long the main thread is blocked while 20 messages a second
// arrive, after 1,000 and after 10,000 messages (the log's cap), and the DOM's size.
//
// A keystroke's cost and the long tasks are measured in the page (keystroke-probe.mjs).
// The messages come from the server's `POST /api/dev/flood` (emulator-side publishes).
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromium } from 'playwright-core'
import { createServer, preview } from 'vite'
import { bounded, CHROMIUM, CHROMIUM_ARGS, skipped } from './chromium.mjs'
import { keystrokeProbe } from './keystroke-probe.mjs'
import { fmt, table } from './stats.mjs'

const TITLE = 'The playground chat under load (Chromium, keystrokes while 20 messages/s arrive)'
const STAGES = (process.env.CHAT_BENCH_STAGES ?? '1000,10000').split(',').map(Number)
/** `dev,prod` (default), or one of them. */
const SERVERS = (process.env.CHAT_BENCH_SERVERS ?? 'dev,prod').split(',')
const TYPED = 'The quick brown fox jumps over the lazy dog, then types a little more to be sure.'
const KEY_DELAY_MS = 80
const LIVE_RATE = 20
/** How long a stage may take to show its messages before it is reported as not reached. */
const SHOW_TIMEOUT_MS = Number(process.env.CHAT_BENCH_SHOW_TIMEOUT_MS ?? 240_000)
/** Issue 44's goals, at 10,000 messages: key-to-frame p95 per server; issue 25's for the rest. */
const GOAL = { frameP95Ms: { dev: 50, prod: 16 }, keystrokeP95Ms: 16, longTaskMs: 50, domElements: 3_000 }
/**
 * The chat as it was, measured by this script against a checkout of that commit (the file says
 * how): appended to this run's figures, so RESULTS.md shows before and after.
 */
const BEFORE = new URL('../chat-before.md', import.meta.url)
// CHAT_BENCH_PLAYGROUND: another checkout's playground (a "before" figure from an older commit).
const PLAYGROUND = process.env.CHAT_BENCH_PLAYGROUND ?? fileURLToPath(new URL('../../playground', import.meta.url))
const CONFIG = join(PLAYGROUND, 'vite.config.ts')
const PROD_DIST = fileURLToPath(new URL('../../node_modules/.cache/tandem-bench-chat/', import.meta.url))
const LABEL = { dev: 'dev server', prod: 'production build' }

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
const sorted = (xs) => [...xs].sort((a, b) => a - b)

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

/** The production build, in a process of its own (NODE_ENV=production there, not in this one). */
async function buildProduction() {
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js')
  const args = [vite, 'build', '--outDir', PROD_DIST, '--emptyOutDir', '--logLevel', 'warn']
  await promisify(execFile)(process.execPath, args, {
    cwd: PLAYGROUND,
    env: { ...process.env, NODE_ENV: 'production' },
    maxBuffer: 16 * 1024 * 1024,
  })
}

async function serve(kind) {
  const listen = { port: 0, host: '127.0.0.1' }
  if (kind === 'dev') {
    const server = await createServer({ configFile: CONFIG, logLevel: 'warn', server: listen })
    await server.listen()
    return server
  }
  await buildProduction()
  return preview({ configFile: CONFIG, logLevel: 'warn', build: { outDir: PROD_DIST }, preview: listen })
}

/** Key-to-frame on a page with nothing but an input: the wait for the display's next frame alone. */
async function floor(browser) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } })
  try {
    await page.setContent('<label>Message <input></label>')
    await page.evaluate(keystrokeProbe)
    await page.getByLabel('Message').pressSequentially(TYPED, { delay: KEY_DELAY_MS })
    const frames = sorted(await page.evaluate(() => window.__keystrokes.frames))
    return { p50: quantile(frames, 0.5), p95: quantile(frames, 0.95) }
  } finally {
    await page.close()
  }
}

/** One server: the stages, then the chat hidden behind another panel. */
async function measure(browser, kind) {
  const server = await serve(kind)
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } })
  try {
    const origin = server.resolvedUrls.local[0].replace(/\/$/, '')
    await page.addInitScript(keystrokeProbe)
    await page.goto(`${origin}/?user=bench#chat`)
    await page.waitForSelector('[data-testid="connection-state"][data-state="connected"]', { timeout: 60_000 })
    await page.waitForSelector('[data-testid="messages"][data-history="loaded"]', { timeout: 60_000 })
    const flood = (count, rate) =>
      fetch(`${origin}/api/dev/flood?user=bench&count=${count}&rate=${rate}`, { method: 'POST' }).then((r) => {
        if (!r.ok) throw new Error(`flood: ${r.status}`)
      })
    const input = page.getByLabel('Message')

    const rows = []
    const at = {}
    let total = 0
    const base = await newestShown(page) // the channel's offset before: a fresh server starts at 0
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
        window.__keystrokes.frames = []
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
            frames: b.frames,
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
      const keys = sorted(m.keys)
      const frames = sorted(m.frames)
      at[stage] = { frameP95: quantile(frames, 0.95), keyP95: quantile(keys, 0.95), longest: m.longest }
      rows.push([
        LABEL[kind],
        `${stage.toLocaleString('en-US')}${shown.reached ? '' : ` (not reached: message ${(shown.shown - base).toLocaleString('en-US')} shown after ${SHOW_TIMEOUT_MS / 1000} s)`}`,
        String(keys.length),
        fmt(quantile(keys, 0.5), 1),
        `**${fmt(quantile(keys, 0.95), 1)}**`,
        fmt(quantile(frames, 0.5), 1),
        `**${fmt(quantile(frames, 0.95), 1)}**`,
        String(m.longTasks),
        `**${fmt(m.longest)}**`,
        `${fmt((m.blockedMs / m.spanMs) * 100)} %`,
        `**${m.dom.toLocaleString('en-US')}**`,
      ])
      console.log(`chat (${LABEL[kind]}): ${stage} messages measured`)
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
    const hidden = await page.evaluate(() => {
      const b = window.__keystrokes
      const tasks = b.longTasks.filter((t) => t.start >= b.from)
      return { longTasks: tasks.length, longest: Math.max(0, ...tasks.map((t) => t.duration)) }
    })
    await page.getByRole('tab', { name: 'Chat' }).click()
    const back = await untilShown(page, base + total + 1_000)
    return { rows, at, hidden: { ...hidden, reached: back.reached, shown: back.shown - base } }
  } finally {
    await page.close().catch(() => {})
    await server.close()
  }
}

export async function run() {
  if (!existsSync(CHROMIUM)) return skipped(TITLE)
  const load = fmt(os.loadavg()[0], 2)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  try {
    const bare = await floor(browser)
    const runs = {}
    for (const kind of SERVERS) runs[kind] = await measure(browser, kind)
    const cap = Math.max(...STAGES)
    const goals = SERVERS.map((kind) => {
      const got = runs[kind].at[cap]
      const goal = GOAL.frameP95Ms[kind]
      return `${LABEL[kind]} ≤ ${goal} ms: **${got && got.frameP95 <= goal ? 'met' : 'missed'}** (${got ? fmt(got.frameP95, 1) : '?'} ms)`
    })
    const hidden = SERVERS.map((kind) => {
      const h = runs[kind].hidden
      return `${LABEL[kind]}: ${h.longTasks} long tasks, the longest ${fmt(h.longest)} ms (shown again, the chat ${h.reached ? 'showed the newest' : `had reached message ${h.shown.toLocaleString('en-US')}`})`
    })
    return {
      title: TITLE,
      body:
        table(
          [
            'server',
            'messages in the chat',
            'keystrokes',
            'keystroke p50 ms',
            'keystroke p95 ms',
            'key-to-frame p50 ms',
            'key-to-frame p95 ms',
            'long tasks',
            'longest ms',
            'main thread blocked',
            'DOM elements',
          ],
          SERVERS.flatMap((kind) => runs[kind].rows),
        ) +
        `\n\nGoals (issue 44), at ${cap.toLocaleString('en-US')} messages${cap >= 10_000 ? " (the log's cap)" : ''} while ${LIVE_RATE} messages/s arrive: key-to-frame p95 on the ${goals.join(', on the ')}. ` +
        `Key-to-frame includes the wait for the display's next frame (60 Hz): on a page with nothing but an input, the same typing measures p50 ${fmt(bare.p50, 1)} ms, p95 ${fmt(bare.p95, 1)} ms, so a p95 under 16 ms leaves the page almost nothing. ` +
        `Goals (issue 25): keystroke p95 ≤ ${GOAL.keystrokeP95Ms} ms and no long task over ${GOAL.longTaskMs} ms; the DOM under ${GOAL.domElements.toLocaleString('en-US')} elements. ` +
        `A keystroke's cost runs from its keydown's timestamp to the end of its handlers, React's render and a forced style and layout (not the paint); key-to-frame, to the end of the frame that shows it; ${TYPED.length} characters typed ${KEY_DELAY_MS} ms apart. ` +
        `With the chat hidden behind another panel, 1,000 more messages arrived at once: ${hidden.join('; ')}. ` +
        `Chromium ${browser.version()} (headless), the playground's dev server (Vite, React's development build) and its production build (\`vite build\`, served by \`vite preview\`), each with the embedded emulator; ${process.env.CHAT_BENCH_LABEL ?? 'this commit'}; load average ${load} on ${os.cpus().length} CPUs when the bench started.` +
        (!process.env.CHAT_BENCH_PLAYGROUND && existsSync(BEFORE) ? `\n\n${readFileSync(BEFORE, 'utf8').trim()}` : ''),
    }
  } finally {
    await browser.close().catch(() => {})
  }
}
