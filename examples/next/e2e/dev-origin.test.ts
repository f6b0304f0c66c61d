// `next dev` of the example opened at http://127.0.0.1:<port>, the address the emulator and the
// playground print. Next.js serves its dev resources (HMR, the dev runtime) to localhost only
// unless next.config's allowedDevOrigins names the host: without it the page never hydrates.
// Started as scripts/run.mjs starts it (no -H: listening on every interface), in Chromium.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { slack } from '../../../test/utils/wait.js'
import { freePort } from '../../../test/utils/http-server.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
const APP = fileURLToPath(new URL('..', import.meta.url))
const NEXT = createRequire(import.meta.url).resolve('next/dist/bin/next')
/** The first visit compiles the page: longer than a click. */
const WAIT = { timeout: Math.max(60_000, slack(30_000)) }

describe.skipIf(!hasChromium)('examples/next on next dev, opened at 127.0.0.1', () => {
  let browser: Browser
  let stop: (() => Promise<void>) | undefined
  let output = ''
  let url = ''

  beforeAll(async () => {
    const port = await freePort()
    const child = spawn(process.execPath, [NEXT, 'dev', '-p', String(port)], {
      cwd: APP,
      // Vitest's NODE_ENV=test is not a developer's shell.
      env: { ...process.env, NODE_ENV: 'development', TANDEM_URL: inject('emulatorUrl'), NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    stop = () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      })
    url = `http://127.0.0.1:${port}`
    // Ready when it answers (an asset that is not there: nothing to compile).
    const deadline = Date.now() + WAIT.timeout
    for (;;) {
      if (child.exitCode !== null) throw new Error(`next dev exited (${child.exitCode}):\n${output}`)
      const answered = await fetch(`${url}/icon.svg`, { signal: AbortSignal.timeout(2_000) }).then(
        () => true,
        () => false,
      )
      if (answered) break
      if (Date.now() > deadline) throw new Error(`next dev did not answer at ${url}:\n${output}`)
      await new Promise((r) => setTimeout(r, 200))
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] })
  }, WAIT.timeout * 2)
  afterAll(async () => {
    await browser?.close()
    await stop?.()
  })

  it('hydrates and turns live: its dev resources are not refused to 127.0.0.1', async () => {
    const page = await (await browser.newContext()).newPage()
    page.setDefaultTimeout(WAIT.timeout)
    // What Next.js refuses: its HMR socket (the handshake answered 403) or a dev resource.
    const refused: string[] = []
    const firstRefusal = new Promise<void>((resolve) => {
      const refuse = (at: string) => {
        const path = new URL(at).pathname
        if (!path.startsWith('/_next/')) return
        refused.push(path)
        resolve()
      }
      page.on('response', (r) => void (r.status() === 403 && refuse(r.url())))
      page.on('websocket', (ws) => ws.on('socketerror', () => refuse(ws.url())))
    })
    await page.goto(`${url}/`)
    // The badge connects from an effect: only a hydrated page gets there. A refusal ends the wait.
    await Promise.race([page.locator('[data-testid="connection"][data-state="connected"]').waitFor(WAIT), firstRefusal])
    expect(refused).toEqual([])
    expect(output).not.toContain('Blocked cross-origin request')
    expect(await page.getByTestId('connection').getAttribute('data-state')).toBe('connected')
  })
})
