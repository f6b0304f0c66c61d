// `npm run bench` runs every benchmark; `npm run bench -- rest` one of them. Writes bench/RESULTS.md.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { chart } from './chart.mjs'

// Loaded on demand, so `npm run bench -- bundle` does not load socket.io or Chromium's driver.
const BENCHES = {
  bundle: () => import('./bundle.mjs'),
  rest: () => import('./rest.mjs'),
  realtime: () => import('./realtime.mjs'),
  counts: () => import('./counts.mjs'),
  browser: () => import('./browser.mjs'),
  tabs: () => import('./tabs.mjs'),
  chat: () => import('./chat.mjs'),
  hostile: () => import('./hostile.mjs'),
  presence: () => import('./presence.mjs'),
  persist: () => import('./persist.mjs'),
  devtools: () => import('./devtools.mjs'),
  autocomplete: () => import('./autocomplete.mjs'),
  upstream: () => import('./upstream.mjs'),
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
  'partysocket',
  'nanoevents',
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
// The timed benches run the built packages; `bundle` measures `src` and the peers, and needs no build
// (so `npm run bench -- bundle` takes seconds, and its figures depend on the code alone).
const SIZES_ONLY = new Set(['bundle', 'upstream'])
const timed = names.some((n) => !SIZES_ONLY.has(n))
if (timed) execFileSync('npm', ['run', 'build'], { stdio: 'inherit', cwd: new URL('../..', import.meta.url).pathname })
const started = performance.now()
const fresh = new Map()
// The chart's figures, kept per section like RESULTS.md: a partial run replaces only its own.
const figuresFile = new URL('../figures.json', import.meta.url)
let figures = {}
try {
  figures = JSON.parse(readFileSync(figuresFile, 'utf8'))
} catch {
  // No figures yet.
}
for (const name of names) {
  console.log(`\n== ${name} ==`)
  const { title, body, figures: got } = await (await BENCHES[name]()).run()
  if (got) figures[name] = got
  console.log(`${title}\n\n${body}`)
  fresh.set(name, `<!-- bench:${name} -->\n\n## ${title}\n\n${body}`)
}

// A run of some benches replaces only their sections: the others keep their last full figures
// (each section says when and by which command it was measured).
const out = new URL('../RESULTS.md', import.meta.url)
const previous = new Map()
try {
  const text = readFileSync(out, 'utf8')
  for (const part of text.split(/(?=<!-- bench:\w+ -->)/).slice(1))
    previous.set(/^<!-- bench:(\w+) -->/.exec(part)?.[1], part.trim())
} catch {
  // No results yet.
}
const wall = timed ? ` (wall time ${Math.round((performance.now() - started) / 1000)} s)` : ''
const stamp = `_Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench${wanted.length ? ` -- ${wanted.join(' ')}` : ''}\`${wall}._`
const sections = Object.keys(BENCHES)
  .map((name) => (fresh.has(name) ? `${fresh.get(name)}\n\n${stamp}` : previous.get(name)))
  .filter(Boolean)

const header = [
  '# Benchmark results',
  '',
  'Command: `npm run bench` (from the repository root; builds first, except for `bundle` and `upstream` alone, which measure `src`) runs every section below; `npm run bench -- <name>` one of them (`bundle`, `rest`, `realtime`, `counts`, `browser`, `tabs`, `chat`, `hostile`, `presence`, `persist`, `devtools`, `autocomplete`, `upstream`), replacing only its section.',
  `Machine: ${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}`,
  `Node ${process.version}. Versions: ${PACKAGES.map((p) => `${p} ${version(p)}`).join(', ')}.`,
  '',
  'Figures are medians over interleaved rounds with min–max; ratios are against the baseline of the same run, because these machines are noisy.',
  '',
  '![Bundle sizes per use case beside their peers, and the speed ratios against their floors](results.svg)',
  '',
].join('\n')
// Formatted as the repository formats Markdown, so `npm run format:check` stays green after a run.
const prettier = await import('prettier')
const options = { ...(await prettier.resolveConfig(out.pathname)), filepath: out.pathname }
writeFileSync(out, await prettier.format(`${header}\n${sections.join('\n\n')}\n`, options))
writeFileSync(
  figuresFile,
  await prettier.format(JSON.stringify(figures), { ...options, filepath: figuresFile.pathname, parser: 'json' }),
)
writeFileSync(new URL('../results.svg', import.meta.url), chart(figures))
console.log('\nwrote bench/RESULTS.md, bench/figures.json and bench/results.svg')
