// `npm run bench` runs every benchmark; `npm run bench -- rest` one of them. Writes bench/RESULTS.md.
import { readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'

// Loaded on demand, so `npm run bench -- bundle` does not load socket.io or Chromium's driver.
const BENCHES = {
  bundle: () => import('./bundle.mjs'),
  rest: () => import('./rest.mjs'),
  realtime: () => import('./realtime.mjs'),
  counts: () => import('./counts.mjs'),
  browser: () => import('./browser.mjs'),
  hostile: () => import('./hostile.mjs'),
}
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'))
const names = wanted.length ? wanted : Object.keys(BENCHES)
for (const n of names)
  if (!BENCHES[n]) {
    console.error(`unknown bench "${n}"; choose from ${Object.keys(BENCHES).join(', ')}`)
    process.exit(2)
  }

// Read package.json from node_modules directly: some packages (ky) keep it out of their exports map.
const version = (p) => {
  try {
    return JSON.parse(readFileSync(new URL(`../../node_modules/${p}/package.json`, import.meta.url), 'utf8')).version
  } catch {
    return '?'
  }
}
const PACKAGES = [
  'esbuild',
  'pusher-js',
  'ably',
  'centrifuge',
  'socket.io-client',
  'socket.io',
  '@supabase/realtime-js',
  '@tanstack/react-query',
  'swr',
  'ofetch',
  'ky',
  'ws',
  'react',
  'playwright-core',
]
const started = performance.now()
const sections = []
for (const name of names) {
  console.log(`\n== ${name} ==`)
  const { title, body } = await (await BENCHES[name]()).run()
  console.log(`${title}\n\n${body}`)
  sections.push(`## ${title}\n\n${body}`)
}

const header = [
  '# Benchmark results',
  '',
  `Command: \`npm run bench${wanted.length ? ` -- ${wanted.join(' ')}` : ''}\` (from the repository root; builds first).`,
  `Date: ${new Date().toISOString()}`,
  `Machine: ${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}`,
  `Node ${process.version}. Versions: ${PACKAGES.map((p) => `${p} ${version(p)}`).join(', ')}.`,
  '',
  `Wall time of this run: ${Math.round((performance.now() - started) / 1000)} s.`,
  '',
  'Figures are medians over interleaved rounds with min–max; ratios are against the baseline of the same run, because these machines are noisy.',
  '',
].join('\n')
// Formatted as the repository formats Markdown, so `npm run format:check` stays green after a run.
const out = new URL('../RESULTS.md', import.meta.url)
const prettier = await import('prettier')
const options = { ...(await prettier.resolveConfig(out.pathname)), filepath: out.pathname }
writeFileSync(out, await prettier.format(`${header}\n${sections.join('\n\n')}\n`, options))
console.log('\nwrote bench/RESULTS.md')
