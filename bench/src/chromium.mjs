// What the benches that run in headless Chromium (browser.mjs, tabs.mjs) share: where Chromium is,
// how it is launched, how long a page may take, how the page's code is bundled, and the result when
// Chromium is missing. One place, so the benches cannot drift apart on any of it.
import { build } from 'esbuild'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const TIMEOUT_MS = 30_000
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

// page.evaluate has no timeout of its own: bound it, so a lost message cannot hang the bench.
export function bounded(promise, what, ms = TIMEOUT_MS) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result after ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** The module at `entryUrl` (a file: URL) bundled for the browser (esbuild, minified, ESM), ready to inline in a <script>. */
export async function bundleForPage(entryUrl) {
  const result = await build({
    entryPoints: [new URL(entryUrl).pathname],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    logLevel: 'silent',
  })
  // Inline in a <script>: keep the bundle from closing the tag early.
  return result.outputFiles[0].text.replaceAll('</script', '<\\/script')
}

/** A bench's result when there is no Chromium to run it in. */
export function skipped(title) {
  return {
    title,
    body: `Skipped: Chromium not found at ${CHROMIUM} (install it with \`apt-get install -y chromium\` or set CHROMIUM_PATH).`,
  }
}
