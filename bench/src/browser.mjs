// Realtime receive throughput inside headless Chromium: @tandem/realtime vs the browser's raw
// WebSocket doing JSON.parse (baseline), fed by the same blast server as realtime.mjs in its own
// Node process. The client code is bundled with esbuild and timed in the page.
import { existsSync } from 'node:fs'
import os from 'node:os'
import { chromium } from 'playwright-core'
import { bounded, bundleForPage, CHROMIUM, CHROMIUM_ARGS, skipped, TIMEOUT_MS } from './chromium.mjs'
import { spawnBlast } from './spawn-emulator.mjs'
import { fmt, summarize, table } from './stats.mjs'

// Chromium delivers each frame to the page over IPC: ~12k msgs/s here (vs ~260k in Node), so
// 20,000 messages already make a ~1.5–2 s run and keep the whole bench at about a minute.
const N = 20_000
const ROUNDS = 7
export async function run() {
  const load = os.loadavg()[0] // before the run: what else the machine was doing
  if (!existsSync(CHROMIUM)) return skipped('Realtime receive throughput in Chromium')
  const code = await bundleForPage(new URL('./browser/entry.mjs', import.meta.url))
  let blast
  let browser
  try {
    ;[blast, browser] = await Promise.all([
      spawnBlast(),
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
    ])
    const page = await browser.newPage()
    page.setDefaultTimeout(TIMEOUT_MS)
    await page.setContent(`<!doctype html><script type="module">${code}</script>`)
    await page.waitForFunction(() => window.benchReady === true)
    // The page's main-thread busy time (Chrome's own TaskDuration), read around each run: the
    // client's CPU, which msgs/s shows only when the browser's delivery to the page is not the bound.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable')
    const busy = async () =>
      (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value
    const metered = async (run) => {
      const before = await busy()
      const rate = await run()
      return { rate, cpuUs: (((await busy()) - before) * 1e6) / N }
    }
    const url = (channels) => `ws://127.0.0.1:${blast.port}/n/${N}/c/${channels}/ws`
    const raw = (channels) =>
      metered(() =>
        bounded(
          page.evaluate(([u, n]) => window.benchRaw(u, n), [url(channels), N]),
          'raw client',
        ),
      )
    const floor = (channels) =>
      metered(() =>
        bounded(
          page.evaluate(([u, n, c]) => window.benchPartysocket(u, n, c), [url(channels), N, channels]),
          'partysocket + nanoevents',
        ),
      )
    const tandem = (channels) =>
      metered(() =>
        bounded(
          page.evaluate(([u, n, c]) => window.benchTandem(u, n, c), [url(channels), N, channels]),
          '@tandem/realtime',
        ),
      )

    const RAW = 'raw WebSocket + JSON.parse (baseline)'
    const FLOOR = 'partysocket + JSON.parse + nanoevents (the floor)'
    const contenders = {
      [`${RAW}, 1 channel`]: () => raw(1),
      [`${FLOOR}, 1 channel`]: () => floor(1),
      '@tandem/realtime, 1 channel': () => tandem(1),
      [`${RAW}, 100 channels`]: () => raw(100),
      [`${FLOOR}, 100 channels`]: () => floor(100),
      '@tandem/realtime, 100 channels': () => tandem(100),
    }
    for (const fn of Object.values(contenders)) await fn() // warm-up
    const samples = {}
    const entries = Object.entries(contenders)
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order each round, so drift on a noisy machine hits everyone alike.
      for (const [name, fn] of entries.slice(round % entries.length).concat(entries.slice(0, round % entries.length)))
        (samples[name] ??= []).push(await fn())
    }
    const rows = []
    for (const ch of ['1 channel', '100 channels']) {
      const base = samples[`${RAW}, ${ch}`]
      const bare = samples[`${FLOOR}, ${ch}`]
      for (const name of [`${RAW}, ${ch}`, `${FLOOR}, ${ch}`, `@tandem/realtime, ${ch}`]) {
        const got = samples[name]
        const s = summarize(got.map((x) => x.rate))
        const r = summarize(got.map((x, i) => x.rate / base[i].rate))
        const f = summarize(got.map((x, i) => x.rate / bare[i].rate))
        const cpu = summarize(got.map((x) => x.cpuUs))
        const c = summarize(got.map((x, i) => bare[i].cpuUs / x.cpuUs))
        rows.push([
          name,
          fmt(s.median),
          `${fmt(s.min)}–${fmt(s.max)}`,
          `**${fmt(r.median, 2)}×** (${fmt(r.min, 2)}–${fmt(r.max, 2)})`,
          `**${fmt(f.median, 2)}×** (${fmt(f.min, 2)}–${fmt(f.max, 2)})`,
          `${fmt(cpu.median, 1)} (${fmt(cpu.min, 1)}–${fmt(cpu.max, 1)})`,
          `**${fmt(c.median, 2)}×** (${fmt(c.min, 2)}–${fmt(c.max, 2)})`,
        ])
      }
    }
    return {
      title: `Realtime receive throughput in headless Chromium (msgs/s, ${N.toLocaleString('en-US')} small JSON messages per run, ${ROUNDS} interleaved rounds)`,
      body:
        table(
          [
            'client',
            'median msgs/s',
            'min–max',
            'paired ratio to raw (min–max)',
            'paired ratio to the floor (min–max)',
            'main-thread µs per message, median (min–max)',
            'paired CPU ratio: the floor’s over this (min–max)',
          ],
          rows,
        ) +
        `\n\nGoal: @tandem/realtime ≥ 0.95× the floor, a bare partysocket + JSON.parse + nanoevents client. The blast server runs in its own Node process; both clients run in the page, in Chromium ${browser.version()} (headless), bundled with esbuild (minified, ESM). CPU per message: the page's main-thread busy time (the DevTools protocol's \`TaskDuration\`) over the whole run, connect included, per message; the CPU ratio is the floor's over the client's (above 1: cheaper than the floor), the goal's reading when the browser's delivery to the page bounds msgs/s. Load average ${fmt(load, 2)} on ${os.cpus().length} CPUs when the bench started.`,
    }
  } finally {
    await browser?.close().catch(() => {})
    blast?.stop()
  }
}
