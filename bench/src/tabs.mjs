// One realtime connection for all the tabs of a user (`shareAcrossTabs` from @tandem/realtime/tabs),
// in headless Chromium: several pages of ONE browser context on a real http://127.0.0.1 origin
// (Web Locks and BroadcastChannel need one). Two measurements:
//  1. Connections: N tabs of one user subscribed to a channel, shared or not. Real WebSockets are
//     counted twice: by the browser (Playwright's websocket events) and by the service (the
//     emulator's connection counters).
//  2. The follower's hop: a leader tab and a follower tab on one channel; per message, follower
//     arrival − leader arrival (both on the clock the pages of one browser share), beside the floor
//     of any hop: the same frame text posted on a bare BroadcastChannel between the same two pages.
// The emulator and the publisher run in their own process (bench/src/tabs/emulator.mjs); the page
// is bundled with esbuild from bench/src/tabs/page.mjs and served here with node:http.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import os from 'node:os'
import { createInterface } from 'node:readline'
import { chromium } from 'playwright-core'
import { bounded as boundedFor, bundleForPage, CHROMIUM, CHROMIUM_ARGS, skipped, TIMEOUT_MS } from './chromium.mjs'
import { fmt, summarize, table } from './stats.mjs'

const TABS = [1, 3, 10]
// Per round and kind, one message per timer tick (~1 ms): slow enough that each is handled before
// the next comes (the hop is measured, not a queue), and far below the emulator's publish limit,
// which the publisher raises anyway.
const MESSAGES = 2_000
const GAP_MS = 1
const ROUNDS = 5
const WARM_UP = 200
const PINGS = 200
const GOAL_MS = 1
const KEY = 'user:ana'
const REALTIME_WS = /\/realtime\/v1\/ws(\?|$)/

// The shared bound, its errors named for this bench.
const bounded = (promise, what, ms) => boundedFor(promise, `tabs: ${what}`, ms)

/** Polls `check` (async) until it holds; throws after `ms`. */
async function until(check, what, ms = 10_000) {
  const deadline = performance.now() + ms
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`tabs: timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]

/** bench/src/tabs/emulator.mjs, spoken to one JSON line each way. */
async function spawnService() {
  const child = spawn(process.execPath, [new URL('./tabs/emulator.mjs', import.meta.url).pathname], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const waiting = []
  const early = []
  createInterface({ input: child.stdout }).on('line', (line) => {
    const answer = JSON.parse(line)
    const next = waiting.shift()
    if (next) next.resolve(answer)
    else early.push(answer)
  })
  child.on('exit', (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`tabs: the emulator process exited (${code})`))
  })
  const next = (what) =>
    bounded(
      new Promise((resolve, reject) => (early.length ? resolve(early.shift()) : waiting.push({ resolve, reject }))),
      what,
    )
  const { url, token } = await next('the emulator to start')
  return {
    url,
    token,
    ask: (cmd) => {
      child.stdin.write(`${JSON.stringify(cmd)}\n`)
      return next(`the emulator's answer to ${cmd.op}`)
    },
    stop: async () => {
      if (child.exitCode !== null) return
      const kill = setTimeout(() => child.kill(), 5_000) // ending stdin ends it; this only if that hangs
      child.stdin.end()
      await once(child, 'exit').finally(() => clearTimeout(kill))
    },
  }
}

async function servePage() {
  const code = await bundleForPage(new URL('./tabs/page.mjs', import.meta.url))
  const html = `<!doctype html><meta charset="utf-8"><title>tabs bench</title><script type="module">${code}</script>`
  const server = createServer((req, res) => {
    if (req.url !== '/') return void res.writeHead(404).end()
    // Cross-origin isolated: the pages' clocks tick in 5 µs steps instead of 100 µs.
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    })
    res.end(html)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { origin: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() }
}

/** A browser context (a profile: its pages are tabs of one origin), whose realtime sockets are counted from each page's start. */
async function profile(browser, origin) {
  const context = await browser.newContext()
  const sockets = []
  const errors = []
  context.on('page', (page) => {
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('websocket', (ws) => {
      if (!REALTIME_WS.test(ws.url())) return
      const seen = { closed: false }
      sockets.push(seen)
      ws.on('close', () => (seen.closed = true))
    })
  })
  return {
    sockets,
    errors,
    async open() {
      const page = await context.newPage()
      page.setDefaultTimeout(TIMEOUT_MS)
      await page.goto(origin)
      await page.waitForFunction(() => window.benchReady === true)
      return page
    },
    close: () => bounded(context.close(), 'the context to close'),
  }
}

const start = (page, options) =>
  bounded(
    page.evaluate((o) => window.benchStart(o), options),
    `a tab to subscribe ${[options.hop, options.floor].filter(Boolean).join(' and ')}`,
  )
const role = (page) => page.evaluate(() => window.benchRole())

/** Arms every page for `n` messages of `kind`, publishes them on `channel`, and resolves once all pages have them. */
async function publishRound(svc, pages, { kind, channel, n, gapMs, r }) {
  await Promise.all(pages.map((p) => p.evaluate(([k, m]) => window.benchExpect(k, m), [kind, n])))
  const all = pages.map((p) =>
    bounded(
      p.evaluate((k) => window.benchWait(k), kind),
      `${n} ${kind} messages`,
    ),
  )
  const { acked } = await svc.ask({ op: 'publish', channel, n, gapMs, r })
  if (acked !== n) throw new Error(`tabs: ${acked} of ${n} publishes acked`)
  await Promise.all(all)
}

async function countConnections(browser, svc, origin) {
  const rows = []
  const figures = {}
  for (const share of [false, true])
    for (const n of TABS) {
      const before = await svc.ask({ op: 'stats' })
      const b = await profile(browser, origin)
      const pages = []
      for (let i = 0; i < n; i++) pages.push(await b.open())
      const channel = `count:${share ? 'shared' : 'own'}:${n}`
      // Every tab starts at once: the election races, as when a browser restores a session.
      await Promise.all(
        pages.map((p) => start(p, { url: `${svc.url}/realtime`, token: svc.token, share, key: KEY, hop: channel })),
      )
      const roles = (await Promise.all(pages.map(role))).sort()
      const want = share ? ['leader', ...Array(n - 1).fill('follower')].sort() : Array(n).fill('unshared')
      if (roles.join() !== want.join()) throw new Error(`tabs: ${n} tabs have roles ${roles.join(', ')}`)
      // Every tab gets a message: each is subscribed through whatever socket serves it.
      await publishRound(svc, pages, { kind: 'hop', channel, n: 1, gapMs: 0, r: -1 })
      const after = await svc.ask({ op: 'stats' })
      const opened = b.sockets.length
      const live = b.sockets.filter((s) => !s.closed).length
      if (b.errors.length) throw new Error(`tabs: page errors: ${b.errors.join('; ')}`)
      await b.close()
      // The service sees the sockets go before the next configuration counts.
      await until(async () => (await svc.ask({ op: 'stats' })).open === before.open, 'the service to close the sockets')
      const name = `${share ? 'shared' : 'not shared'}, ${n} tab${n > 1 ? 's' : ''}`
      const expected = share ? 1 : n
      const ok = opened === expected && live === expected && after.open - before.open === expected
      rows.push([
        share ? '`shareAcrossTabs({ key })`' : 'not shared',
        n,
        opened,
        live,
        after.open - before.open,
        after.total - before.total,
        `${expected} ${ok ? '✓' : '✗'}`,
      ])
      figures[name] = { browser: opened, service: after.open - before.open }
    }
  return { rows, figures }
}

async function measureHop(browser, svc, origin) {
  const b = await profile(browser, origin)
  const url = `${svc.url}/realtime`
  // The first tab leads (it is alone when it elects); it also holds the floor's channel.
  const leader = await b.open()
  await start(leader, { url, token: svc.token, share: true, key: KEY, hop: 'hop', floor: 'floor' })
  const follower = await b.open()
  await start(follower, { url, token: svc.token, share: true, key: KEY, hop: 'hop' })
  const roles = [await role(leader), await role(follower)]
  if (roles.join() !== 'leader,follower') throw new Error(`tabs: the two tabs are ${roles.join(', ')}`)
  if (b.sockets.length !== 1) throw new Error(`tabs: ${b.sockets.length} WebSockets for the two tabs`)
  const env = await Promise.all([leader, follower].map((p) => p.evaluate(() => window.benchEnv())))
  const pages = [leader, follower]

  /** One round of `kind`: per message, the follower's arrival − the leader's (ms). */
  async function round(kind, n, r) {
    await publishRound(svc, pages, { kind, channel: kind, n, gapMs: GAP_MS, r })
    const [l, f] = await Promise.all(pages.map((p) => p.evaluate((k) => window.benchTake(k), kind)))
    return Array.from({ length: n }, (_, i) => f[i] - l[i])
  }
  await round('hop', WARM_UP, -1)
  await round('floor', WARM_UP, -1)
  const kinds = ['hop', 'floor']
  const samples = { hop: [], floor: [] }
  for (let r = 0; r < ROUNDS; r++)
    for (const kind of r % 2 ? [...kinds].reverse() : kinds) samples[kind].push(await round(kind, MESSAGES, r))

  // The clock check: the follower page's clock against the leader's, from the fastest round trips.
  const pings = await bounded(
    leader.evaluate((n) => window.benchPingPong(n), PINGS),
    'the BroadcastChannel round trips',
  )
  const fastest = pings.map(([sent, pong, back]) => ({ rtt: back - sent, offset: pong - (sent + back) / 2 }))
  fastest.sort((x, y) => x.rtt - y.rtt)
  const top = fastest.slice(0, Math.ceil(PINGS / 10))
  const clock = {
    rtt: summarize(fastest.map((p) => p.rtt)).median,
    offset: summarize(top.map((p) => p.offset)).median,
  }
  const sockets = b.sockets.length
  if (b.errors.length) throw new Error(`tabs: page errors: ${b.errors.join('; ')}`)
  await b.close()
  return { samples, env, clock, sockets }
}

export async function run() {
  const title = 'One connection for all tabs (`shareAcrossTabs`) in headless Chromium'
  if (!existsSync(CHROMIUM)) return skipped(title)
  const load = fmt(os.loadavg()[0], 2)
  let svc
  let site
  let browser
  try {
    ;[svc, site, browser] = await Promise.all([
      spawnService(),
      servePage(),
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
    ])
    const counts = await countConnections(browser, svc, site.origin)
    const hop = await measureHop(browser, svc, site.origin)

    const perRound = (kind) =>
      hop.samples[kind].map((diffs) => {
        const sorted = [...diffs].sort((a, b) => a - b)
        return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), min: sorted[0], max: sorted.at(-1) }
      })
    const rounds = { hop: perRound('hop'), floor: perRound('floor') }
    const ms = (v) => fmt(v, 3)
    const span = (s) => `${ms(s.min)}–${ms(s.max)}`
    const row = (name, kind, ratio) => {
      const median = summarize(rounds[kind].map((x) => x.median))
      const p95 = summarize(rounds[kind].map((x) => x.p95))
      const all = { min: Math.min(...rounds[kind].map((x) => x.min)), max: Math.max(...rounds[kind].map((x) => x.max)) }
      return [name, `**${ms(median.median)}** (${span(median)})`, `${ms(p95.median)} (${span(p95)})`, span(all), ratio]
    }
    const ratios = summarize(rounds.hop.map((x, i) => x.median / rounds.floor[i].median))
    const hopMedian = summarize(rounds.hop.map((x) => x.median)).median
    const floorMedian = summarize(rounds.floor.map((x) => x.median)).median
    const hopP95 = summarize(rounds.hop.map((x) => x.p95)).median
    const isolated = hop.env.every((e) => e.isolated)
    const visibility = [...new Set(hop.env.map((e) => e.visibility))].join(', ')
    const medians = (kind) => rounds[kind].map((x) => ms(x.median)).join(', ')

    const body = [
      `### Real WebSockets for N tabs of one user, each subscribed to a channel`,
      '',
      table(
        [
          'tabs',
          'N',
          'WebSockets opened (browser)',
          'still open (browser)',
          'open at the service',
          'opened at the service',
          'expected',
        ],
        counts.rows,
      ),
      '',
      `All N tabs of a row are pages of one browser context, started at once (the election races); a row counts once every tab has received a message on the channel. Browser: Playwright's \`websocket\` events for the realtime URL; service: the emulator's \`realtime.stats.connections\` (open now, and opened during the row), the publisher's own socket left out. Goal: shared = 1 for any N, not shared = N.`,
      '',
      `### The follower's hop (ms; ${ROUNDS} interleaved rounds of ${MESSAGES.toLocaleString('en-US')} messages per row, one per ~${GAP_MS} ms)`,
      '',
      table(
        [
          'path from the leader tab to the follower tab',
          'median (min–max of the rounds)',
          'p95 (min–max of the rounds)',
          'every message, min–max',
          'paired ratio to the floor (min–max)',
        ],
        [
          row('floor: the frame text on a bare `BroadcastChannel` (postMessage → onmessage)', 'floor', '1'),
          row(
            '`shareAcrossTabs`: follower arrival − leader arrival, subscriber to subscriber',
            'hop',
            `**${fmt(ratios.median, 2)}×** (${fmt(ratios.min, 2)}–${fmt(ratios.max, 2)})`,
          ),
        ],
      ),
      '',
      `Goal (the issue): ≤ ${GOAL_MS} ms median added by the hop: **${hopMedian <= GOAL_MS ? 'met' : 'missed'}** (${ms(hopMedian)} ms; p95 ${ms(hopP95)} ms). Each page stamps a message with \`performance.timeOrigin + performance.now()\` in its subscriber (the floor: on receipt); the publisher is a Node @tandem/realtime client in the emulator's process. Clock check: follower page's clock − leader page's = ${ms(hop.clock.offset)} ms (from the midpoints of the fastest tenth of ${PINGS} BroadcastChannel round trips; median round trip ${ms(hop.clock.rtt)} ms); the figures are not corrected for it. ${isolated ? 'The pages are cross-origin isolated (COOP + COEP), so their clocks tick in 5 µs steps' : 'The pages are NOT cross-origin isolated: their clocks tick in 100 µs steps'}; both were \`${visibility}\`; the two tabs held ${hop.sockets} WebSocket. Chromium ${browser.version()} (headless), pages bundled with esbuild (minified, ESM) and served from http://127.0.0.1; load average ${load} on ${os.cpus().length} CPUs when the bench started.`,
      '',
      `Round medians in run order (ms): hop ${medians('hop')}; floor ${medians('floor')}. The leader's hub posts a frame to the other tabs before its own tab's client handles it, so the follower can stamp first (a negative difference) when the leader's main thread is descheduled in between; the hop can therefore come out below the floor, whose leader stamps just before posting.`,
    ].join('\n')
    return {
      title,
      body,
      figures: {
        connections: counts.figures,
        hop: { medianMs: hopMedian, p95Ms: hopP95, floorMedianMs: floorMedian, ratioToFloor: ratios.median },
        goalMs: GOAL_MS,
      },
    }
  } finally {
    await browser?.close().catch(() => {})
    site?.close()
    await svc?.stop()
  }
}
