// The docs' bundle figures, from the bench's last run: `npm run bench -- bundle` writes
// results/bundle.json and regenerates every marked block in the docs from it:
//
//   <!-- bench:bundle-goals:start -->
//   (rendered from results/bundle.json by RENDER['bundle-goals'])
//   <!-- bench:bundle-goals:end -->
//
// `npm test` (src/__tests__/figures.test.ts) fails when a block differs from what the JSON renders to.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fmt, table } from './stats.mjs'

const ROOT = new URL('../../', import.meta.url)
export const FIGURES_FILE = new URL('../results/bundle.json', import.meta.url)

/** The files whose marked blocks are regenerated (and checked): the READMEs, docs/**.md, bench/RESULTS.md. */
export function docFiles() {
  const md = (dir) =>
    readdirSync(new URL(dir, ROOT), { withFileTypes: true }).flatMap((f) =>
      f.isDirectory() ? md(`${dir}${f.name}/`) : f.name.endsWith('.md') ? [`${dir}${f.name}`] : [],
    )
  const packages = readdirSync(new URL('packages/', ROOT)).map((p) => `packages/${p}/README.md`)
  return ['README.md', 'bench/RESULTS.md', ...md('docs/'), ...packages.filter((f) => exists(f))]
}
const exists = (file) => {
  try {
    readFileSync(new URL(file, ROOT))
    return true
  } catch {
    return false
  }
}

export const readFigures = () => JSON.parse(readFileSync(FIGURES_FILE, 'utf8'))

const kb = (bytes) => fmt(bytes / 1000, 2)
/** `pusher-js + swr (react external)` → `pusher-js + swr`; `the stack Tandem replaces: a + b` → `a + b`. */
const short = (name) => name.replace(/ \(.*\)$/, '').replace(/^.*: /, '')
const peer = (f, name) => f.peers.find((p) => p.name === name)
const goal = (u) => (u.goal === null ? 'no goal' : `≤ ${fmt(u.goal / 1000, 1)} kB`)
const status = (u) => (u.goal === null ? '' : u.gzip <= u.goal ? 'met' : `**missed** by ${kb(u.gzip - u.goal)} kB`)
const measured = (f) =>
  `min+gzip, kB = 1,000 bytes; measured ${f.date} by \`${f.command}\` into \`bench/results/bundle.json\`.`
const modules = (f) =>
  f.useCases
    .map((u) => `- **${u.label}**: ${u.modules.map(([path, bytes]) => `\`${path}\` ${kb(bytes)}`).join(', ')}`)
    .join('\n')
const entries = (f) =>
  table(
    ['entry point', 'min', 'min+gzip', 'budget'],
    f.entries.map((e) => [`\`${e.entry}\``, kb(e.min), `**${kb(e.gzip)}**`, kb(e.budget)]),
  )

const devtools = ({ devtools: d, ...f }) =>
  [
    table(
      ['chunk (development build; what the page loads at that moment)', 'min', 'min+gzip', 'budget (min+gzip)'],
      d.rows.map((r) => [r.name, kb(r.min), `**${kb(r.gzip)}**`, kb(r.budget)]),
    ),
    `In production: an app (\`createClient\` + \`createRealtime\`) that imports \`@tandem/devtools\` and calls \`mountDevtools\` ships ${d.production.min} bytes more minified (${d.production.gzip} gzip) than the same app without it, in ${d.production.files} more files, with ${d.production.markers.length ? `**devtools markers: ${d.production.markers.join(', ')}**` : 'no devtools code (the three functions are no-ops; the element, recorder and panel are not in the bundle)'}. The playground built by Vite for production (${d.playground.mounts ? 'it mounts `<TandemDevtools />`' : '**it does not mount the devtools**'}): ${d.playground.files} JS files, ${kb(d.playground.bytes)} kB minified, ${d.playground.markers.length ? `**devtools markers found: ${d.playground.markers.join(', ')}**` : 'no devtools marker (`tandem-devtools`, "Open Tandem devtools")'}. \`npm test\` checks both (\`bench/src/__tests__/devtools.test.ts\`). ${measured(f)}`,
  ].join('\n\n')

/** Each block's Markdown, from the figures alone. */
export const RENDER = {
  /** README: each use case beside the libraries it replaces. */
  bundle: (f) =>
    table(
      ['use case', 'imports', 'Tandem', 'goal', 'peers'],
      f.useCases.map((u) => [
        u.label,
        u.imports,
        `${kb(u.gzip)} kB`,
        [goal(u), status(u)].filter(Boolean).join(': '),
        u.peers.map((p) => `${short(p)} ${kb(peer(f, p).gzip)}`).join(', ') || '—',
      ]),
    ) + `\n\n${measured(f)}`,
  /** docs/architecture.md: measured, budget and goal per use case. */
  'bundle-goals': (f) =>
    table(
      ['use case', 'measured', 'budget', 'goal (issue 28)'],
      f.useCases.map((u) => [
        u.label,
        `${kb(u.gzip)} kB`,
        `${kb(u.budget)} kB`,
        [goal(u), status(u)].filter(Boolean).join(': '),
      ]),
    ) + `\n\n${measured(f)}`,
  /** Each public entry point alone: everything it exports, the other Tandem packages and React external. */
  'bundle-entries': (f) =>
    `${entries(f)}\n\nEach entry point with everything it exports; the other \`@tandem\` packages and React external. ${measured(f)}`,
  /** docs/persist.md: what persisting costs an app, and what not persisting costs (nothing). */
  'bundle-persist': (f) => {
    const app = f.useCases.find((u) => u.id === 'persist')
    const rows = f.entries.filter((e) => e.entry.endsWith('/persist'))
    return (
      table(
        ['what', 'min', 'min+gzip', 'budget'],
        [
          [`${app.label} (${app.imports})`, kb(app.min), `**${kb(app.gzip)}**`, kb(app.budget)],
          ...rows.map((e) => [`\`${e.entry}\` alone`, kb(e.min), `**${kb(e.gzip)}**`, kb(e.budget)]),
        ],
      ) +
      `\n\nAn app that does not import \`@tandem/core/persist\` ships none of its modules, nor idb-keyval (\`npm test\` checks every other use case). ${measured(f)}`
    )
  },
  /** The devtools' own size (development build, per chunk) and what they cost in production (nothing). */
  'bundle-devtools': (f) => devtools(f),
  /** The biggest modules of each use case (minified kB before gzip): where the bytes are. */
  'bundle-modules': (f) => `${modules(f)}\n\nMinified kB before gzip, from \`${f.command}\` (${f.date}).`,
  /** bench/RESULTS.md: every figure. */
  'bundle-results': (f) => {
    const header = ['entry', 'min', 'min+gzip', 'min+brotli', 'budget (min+gzip)']
    const row = (e, label) => [label, kb(e.min), `**${kb(e.gzip)}**`, kb(e.brotli)]
    const rows = f.useCases.flatMap((u) => [
      [...row(u, u.name), `${kb(u.budget)}${u.goal === null ? ' (no goal)' : ` (goal ${kb(u.goal)})`}`],
      ...u.peers.map((p) => [...row(peer(f, p), `peer: ${p} (${fmt(u.gzip / peer(f, p).gzip, 2)}×)`), '']),
    ])
    const others = f.peers.filter((p) => !f.useCases.some((u) => u.peers.includes(p.name)))
    return [
      '### Per use case, each beside its peers (ratio: Tandem over the peer)',
      table(header, rows),
      `Goals (issue 28): ${f.useCases.map((u) => `${u.label}: ${status(u) || 'no goal'}`).join('; ')}.`,
      '### Each entry point alone (everything it exports; the other `@tandem` packages and React external)',
      table(
        header,
        f.entries.map((e) => [...row(e, e.entry), kb(e.budget)]),
      ),
      '### Other peers',
      table(
        header.slice(0, 4),
        others.map((p) => row(p, p.name)),
      ),
      ...(f.devtools ? ["### The devtools' own size, and their cost in production", devtools(f)] : []),
      '### The biggest modules per use case (minified kB before gzip)',
      modules(f),
      `Budgets are enforced by \`npm test\` (\`bench/src/__tests__/budgets.test.ts\`). Where a budget differs from the goal, the goal is missed; docs/architecture.md ("Entry points and bundle budgets") says what stands in the way. ${measured(f)} Method: ${f.method}; Node ${f.node}, esbuild ${f.esbuild}.`,
    ].join('\n\n')
  },
}

const START = (name) => `<!-- bench:${name}:start -->`
const END = (name) => `<!-- bench:${name}:end -->`
const BLOCK = /<!-- bench:([\w-]+):start -->\n([\s\S]*?)\n?<!-- bench:([\w-]+):end -->/g

/** Each block of a text: its name and content (between the markers, trimmed). */
export function blocks(text) {
  return [...text.matchAll(BLOCK)].map(([, name, content, end]) => ({ name, end, content: content.trim() }))
}

/** A block's content as the repository formats Markdown, so `npm run format:check` stays green. */
export async function render(name, figures) {
  const make = RENDER[name]
  if (!make) throw new Error(`unknown block bench:${name}; known: ${Object.keys(RENDER).join(', ')}`)
  const prettier = await import('prettier')
  const file = new URL('README.md', ROOT).pathname
  const options = { ...(await prettier.resolveConfig(file)), parser: 'markdown' }
  return (await prettier.format(make(figures), options)).trim()
}

/** The block with its markers, as run.mjs writes it into bench/RESULTS.md. */
export const RESULTS_BLOCK = async (figures) =>
  `${START('bundle-results')}\n\n${await render('bundle-results', figures)}\n\n${END('bundle-results')}`

/** The text with every marked block rendered afresh. */
export async function regenerate(text, figures) {
  let out = ''
  let at = 0
  for (const match of text.matchAll(BLOCK)) {
    const [whole, name] = match
    out += `${text.slice(at, match.index)}${START(name)}\n\n${await render(name, figures)}\n\n${END(name)}`
    at = match.index + whole.length
  }
  return out + text.slice(at)
}

/** Writes results/bundle.json and regenerates every marked block in the docs from it. */
export async function writeFigures(figures) {
  const prettier = await import('prettier')
  const options = { ...(await prettier.resolveConfig(FIGURES_FILE.pathname)), filepath: FIGURES_FILE.pathname }
  const { mkdirSync } = await import('node:fs')
  mkdirSync(new URL('.', FIGURES_FILE), { recursive: true })
  writeFileSync(FIGURES_FILE, await prettier.format(JSON.stringify(figures), options))
  for (const file of docFiles()) {
    const url = new URL(file, ROOT)
    const text = readFileSync(url, 'utf8')
    const next = await regenerate(text, figures)
    if (next !== text) writeFileSync(url, next)
  }
}
