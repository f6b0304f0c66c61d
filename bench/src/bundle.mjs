// Bundle size: esbuild, minified, browser, ESM; gzip -9 and brotli, for realistic entry points.
import { build } from 'esbuild'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { table, fmt } from './stats.mjs'

// [source, packages left out of the bundle]
export const ENTRIES = {
  '@tandem/core (createClient + errors)': `export { createClient, isTandemError } from '@tandem/core'`,
  '@tandem/realtime (createRealtime; @tandem/core external)': [`export { createRealtime } from '@tandem/realtime'`, ['@tandem/core']],
  'ofetch (peer)': `export { ofetch } from 'ofetch'`,
  'ky (peer)': `export { default } from 'ky'`,
}

export async function measure(source, external = []) {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'js' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent', external,
  })
  const code = result.outputFiles[0].contents
  return {
    min: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}

export async function run() {
  const rows = []
  for (const [name, entry] of Object.entries(ENTRIES)) {
    const [source, external] = Array.isArray(entry) ? entry : [entry, []]
    const s = await measure(source, external)
    rows.push([name, fmt(s.min / 1024, 2), fmt(s.gzip / 1024, 2), fmt(s.brotli / 1024, 2)])
  }
  return {
    title: 'Bundle size (esbuild --bundle --minify, browser, ESM; KiB)',
    body: table(['entry', 'min', 'min+gzip', 'min+brotli'], rows)
      + '\n\nBudgets: `@tandem/core` ≤ 7 kB, `@tandem/realtime` ≤ 6 kB min+gzip (see docs/architecture.md, "Bundle sizes today").',
  }
}
