// What every browser test file shares: the playground (with the embedded emulator) on an ephemeral
// port, served from one build by `vite preview` (global-setup.ts) or by the dev server, Debian's
// Chromium through playwright-core, pages that collect their own errors,
// and axe-core injected into a page. No sleeps: every wait is a DOM condition with a timeout.
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { createServer, preview, type PreviewServer, type ViteDevServer } from 'vite'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { slack } from '../../test/utils/wait.js'
import { buildProduction, E2E_DIST } from './global-setup.js'

export const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
export const SHOTS = here('../screenshots/')
const CONFIG = here('../vite.config.ts')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const hasChromium = existsSync(CHROMIUM)
/** A page condition's deadline: 20 s on a quiet machine, scaled for a busy one (test/utils/wait.ts). */
export const WAIT = { timeout: Math.max(20_000, slack(10_000)) }
export const DESKTOP = { width: 1100, height: 800 }
export const PHONE = { width: 390, height: 844 }

if (!hasChromium) {
  const message = `Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`
  // CI installs it (.ci/run), so there a missing browser is a failure, not a skip.
  if (process.env.CI) throw new Error(`${message} The browser tests cannot run.`)
  console.warn(`${message} Skipping the browser tests.`)
}

export interface TestPage extends Page {
  /** Uncaught errors and console errors (React's warnings and failed loads land there too). */
  errors: string[]
}

export interface Harness {
  /** The dev server's origin, e.g. http://127.0.0.1:40123 */
  readonly url: string
  /** With `serve: 'production'`: the directory the server serves (the file's own build). */
  readonly dir?: string
  /** A page of its own (own storage, own user) at `path`. */
  open(path: string, viewport?: { width: number; height: number }): Promise<TestPage>
  /** A browser context whose pages are tabs of one browser profile (shared storage, locks, channels). */
  context(): Promise<Tabs>
}

export interface Tabs {
  readonly context: BrowserContext
  /** A new tab at `path`. */
  open(path: string): Promise<TestPage>
}

export interface HarnessOptions {
  /**
   * `build` (default): `vite preview` of the build global-setup.ts made, each file with its own
   * server and emulator. `dev`: Vite's dev server, as `npm run dev` serves the playground.
   * `production`: `vite preview` of a production build the file makes for itself (what ships:
   * the app-shell service worker, no dev controls).
   */
  serve?: 'build' | 'dev' | 'production'
}

/** Starts the server and the browser before the file's tests, closes both after. Call inside `describe`. */
export function useHarness({ serve = 'build' }: HarnessOptions = {}): Harness {
  let server: ViteDevServer | PreviewServer | undefined
  let browser: Browser | undefined
  let url = ''
  let productionDir: string | undefined
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    // Listen and launch at once: they do not depend on each other.
    const started = (async () => {
      if (serve === 'production') {
        productionDir = await mkdtemp(join(tmpdir(), 'tandem-e2e-production-'))
        await buildProduction(productionDir)
      }
      server = serve === 'dev' ? await startDev() : await startPreview(productionDir)
      url = server.resolvedUrls!.local[0]!.replace(/\/$/, '')
    })()
    const launched = chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    })
    browser = (await Promise.all([launched, started]))[0]
  })

  // A test's pages close when it ends: left open, each kept its socket, timers and renders going
  // for the rest of the file (40 pages by the end of polish), slowing every later test.
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => {})))
  })

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => {})))
    await browser?.close()
    await server?.close()
    if (productionDir) await rm(productionDir, { recursive: true, force: true })
  })

  return {
    get url() {
      return url
    },
    get dir() {
      return productionDir
    },
    async open(path, viewport = DESKTOP) {
      const context = await browser!.newContext({ viewport })
      contexts.push(context)
      return openIn(context, `${url}${path}`)
    },
    async context() {
      const context = await browser!.newContext({ viewport: DESKTOP })
      contexts.push(context)
      return { context, open: (path) => openIn(context, `${url}${path}`) }
    },
  }
}

async function startDev(): Promise<ViteDevServer> {
  // Warm-up: Vite transforms the pages' modules while Chromium starts, not during the first page load.
  const server = await createServer({
    configFile: CONFIG,
    logLevel: 'warn',
    server: {
      port: 0,
      host: '127.0.0.1',
      warmup: { clientFiles: ['./src/main.tsx', './src/vanilla.ts', './src/tabs-page.ts'] },
    },
  })
  return server.listen()
}

function startPreview(outDir = E2E_DIST): Promise<PreviewServer> {
  return preview({
    configFile: CONFIG,
    logLevel: 'warn',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1' },
  })
}

async function openIn(context: BrowserContext, url: string): Promise<TestPage> {
  const page = (await context.newPage()) as TestPage
  page.setDefaultTimeout(WAIT.timeout)
  page.errors = []
  page.on('pageerror', (e) => page.errors.push(e.message))
  page.on('console', (m) => void (m.type() === 'error' && page.errors.push(m.text())))
  await page.goto(url)
  return page
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * axe-core's serious and critical findings on the page as it is now, one line each (empty: none);
 * `within`: only the elements a selector matches (and what they hold), not the whole document.
 */
export async function axeFindings(page: Page, within?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE })
  return page.evaluate(async (within) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe
    const { violations } = await axe.run(within ?? document, { resultTypes: ['violations'] })
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  }, within)
}

/** Waits until the page's app has data on screen and its realtime connection is up. */
export async function ready(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'connected',
    undefined,
    WAIT,
  )
}
