// What @tandem/devtools weighs (issue 31), and what it costs in production: nothing.
//
// - Its own size, in a development build (where it runs): esbuild splits it as an app's bundler
//   does, and each step is what the page loads then: the entry, the element with its launcher and
//   recorder (imported when it mounts), the panel (imported on first open). Budgets: `npm test`
//   (src/__tests__/devtools.test.ts).
// - In production: an app that imports `@tandem/devtools` and calls `mountDevtools`, beside the same
//   app without it (esbuild, NODE_ENV=production): the difference is the no-op, no devtools code;
//   and the playground built by Vite for production holds none of the devtools' markers.
import { build } from 'esbuild'
import { execFile } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'

const ROOT = new URL('../../', import.meta.url)
const PEERS = ['@tandem/core', '@tandem/core/*', '@tandem/realtime', '@tandem/realtime/*', '@tandem/react']
const REACT = ['react', 'react-dom', 'react/jsx-runtime']

/** Strings only the devtools' code holds: none may be in a production build. */
export const MARKERS = ['tandem-devtools', 'Open Tandem devtools']

/**
 * The devtools' chunks, min+gzip in a development build, each with a budget at today's size.
 * `step` names the chunk by what the page loads at that moment (see `chunks`).
 */
export const DEVTOOLS_ROWS = [
  {
    id: 'entry',
    name: '`@tandem/devtools` entry (what a development build loads first: the switches, emulatorActions, the recorder)',
    source: `export * from '@tandem/devtools'`,
    step: 'entry',
    budget: 3_007, // today's size (issue 31): the four switches, emulatorActions, the helpers the element shares (two files); 3.01 kB (issue 31 review): the recorder moved here from the element's chunk, so it records from the page's start, not from when the element's chunk has loaded
  },
  {
    id: 'element',
    name: 'element + launcher chunk (imported when it mounts)',
    source: `export * from '@tandem/devtools'`,
    step: 'element',
    budget: 4022, // today's size (issue 31): <tandem-devtools>, its launcher and styles, the strings; 3.73 kB (issue 31 review): the recorder and its rings moved to the entry; -168 bytes (issue 43): module order; +479 bytes (issue 46): the shared LauncherElement base (@tandem/elements): its members keep their names when minified, and h and sheet count here since they left @tandem/core; -22 bytes (issue 46, trimmed): development-only sentences guarded by DEV at each call site, shared edge builders, one mergeStrings loop
  },
  {
    id: 'panel',
    name: 'panel chunk (imported on first open)',
    source: `export * from '@tandem/devtools'`,
    step: 'panel',
    budget: 6233, // today's size (issue 31): the seven tabs, the actions bar and the panel's styles; +36 bytes (issue 31 review): the timeline's 'recording started' row; +134 bytes (issue 32 review): the DOM helpers (h, sheet) now come from core's internal entry, one copy with the messenger's, and land in this chunk; +27 bytes (issue 43): the rate-limit view names the bucket (customer quota); +405 bytes (issue 44): the tab strip's focus ring and overflow cues (a faded chevron on each side with more; the selected tab scrolled into view); -126 bytes (issue 46): the shared LauncherElement base (@tandem/elements): its members keep their names when minified, and h and sheet count here since they left @tandem/core
  },
  {
    id: 'react',
    name: '`@tandem/devtools/react` entry (`<TandemDevtools />`; the element and panel chunks as above)',
    source: `export * from '@tandem/devtools/react'`,
    step: 'entry',
    budget: 2884, // today's size (issue 31): the component; it imports the element chunk when it renders; 2.88 kB (issue 31 review): it makes its recorder in its first effect, before the element's chunk loads (the recorder comes with it); +1 byte (issue 32 review): module order, the same code; -2 bytes (issue 43): module order; +1 byte (issue 44): module order, the same code; -3 bytes (issue 46): the shared LauncherElement base (@tandem/elements): its members keep their names when minified, and h and sheet count here since they left @tandem/core; +3 bytes (issue 46, trimmed): module order, the same code
  },
]

/** One development build, split: each output's min and gzip, with what it imports statically and dynamically. */
async function splitBuild(source) {
  const result = await build({
    stdin: { contents: source, resolveDir: fileURLToPath(new URL('src/', new URL('bench/', ROOT))), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    outdir: '/out',
    // The chunks' hashed names, and so their bytes, depend on paths relative to this: fixed, whatever the cwd.
    absWorkingDir: fileURLToPath(ROOT),
    write: false,
    metafile: true,
    logLevel: 'silent',
    conditions: ['@tandem/source'],
    external: [...PEERS, ...REACT],
    define: { 'process.env.NODE_ENV': '"development"' },
  })
  const name = (path) => path.replace(/^.*\/out\//, '')
  const code = new Map(result.outputFiles.map((f) => [name(f.path), f.contents]))
  return Object.entries(result.metafile.outputs).map(([path, output]) => ({
    file: name(path),
    min: code.get(name(path)).length,
    gzip: gzipSync(code.get(name(path)), { level: 9 }).length,
    inputs: Object.keys(output.inputs),
    imports: output.imports.filter((i) => !i.external).map((i) => ({ file: name(i.path), kind: i.kind })),
  }))
}

/**
 * The bytes each step loads, min+gzip summed over its files: `entry` is the entry and what it
 * imports statically; `element` what the first dynamic import adds; `panel` what the next one adds.
 */
export async function chunks(source) {
  const outputs = await splitBuild(source)
  const byFile = new Map(outputs.map((o) => [o.file, o]))
  const loaded = new Set()
  const load = (file) => {
    const got = []
    const visit = (f) => {
      if (loaded.has(f)) return
      loaded.add(f)
      got.push(byFile.get(f))
      for (const i of byFile.get(f).imports) if (i.kind === 'import-statement') visit(i.file)
    }
    visit(file)
    return got
  }
  const dynamic = (files) =>
    files.flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.file))
  const steps = {}
  let next = ['stdin.js']
  for (const step of ['entry', 'element', 'panel']) {
    const files = next.flatMap(load)
    steps[step] = {
      files: files.length,
      min: files.reduce((n, o) => n + o.min, 0),
      gzip: files.reduce((n, o) => n + o.gzip, 0),
      modules: files.flatMap((o) => o.inputs).map((p) => p.replace(/^.*packages\//, '')),
    }
    next = dynamic(files).filter((f) => !loaded.has(f))
  }
  return steps
}

/** An app (createClient + createRealtime) with and without the devtools, for production. */
const APP = `import { createClient } from '@tandem/core/client'; import { createRealtime } from '@tandem/realtime'
export const start = (o) => { const client = createClient(o); const realtime = createRealtime({ client }); return { client, realtime } }`
export const WITH_DEVTOOLS = `import { createClient } from '@tandem/core/client'; import { createRealtime } from '@tandem/realtime'
import { mountDevtools, emulatorActions } from '@tandem/devtools'
export const start = (o) => { const client = createClient(o); const realtime = createRealtime({ client }); mountDevtools({ client, realtime, actions: emulatorActions({ user: 'ada' }) }); return { client, realtime } }`

/** The app bundled (code splitting on, as an app's bundler has it): every file's text. */
export async function bundleApp(source, env = 'production') {
  const result = await build({
    stdin: { contents: source, resolveDir: fileURLToPath(new URL('bench/src/', ROOT)), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    outdir: '/out',
    // The chunks' hashed names, and so their bytes, depend on paths relative to this: fixed, whatever the cwd.
    absWorkingDir: fileURLToPath(ROOT),
    write: false,
    logLevel: 'silent',
    conditions: ['@tandem/source'],
    define: { 'process.env.NODE_ENV': JSON.stringify(env) },
  })
  return result.outputFiles.map((f) => f.text)
}

/** What importing the devtools and calling mountDevtools adds to a production app: bytes, files, markers. */
export async function productionDelta() {
  const size = (files) => ({
    files: files.length,
    min: files.reduce((n, t) => n + t.length, 0),
    gzip: files.reduce((n, t) => n + gzipSync(t, { level: 9 }).length, 0),
  })
  const without = await bundleApp(APP)
  const withDevtools = await bundleApp(WITH_DEVTOOLS)
  const a = size(without)
  const b = size(withDevtools)
  return {
    files: b.files - a.files,
    min: b.min - a.min,
    gzip: b.gzip - a.gzip,
    markers: MARKERS.filter((m) => withDevtools.some((t) => t.includes(m))),
  }
}

/**
 * The playground built by Vite for production, as `npm run build -w playground` builds it, into
 * `outDir`: its JS files, their bytes, and the devtools' markers found in them (none, or it fails).
 */
export async function playgroundProduction(outDir) {
  const root = fileURLToPath(new URL('playground/', ROOT))
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js')
  await promisify(execFile)(
    process.execPath,
    [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      maxBuffer: 16 * 1024 * 1024,
    },
  )
  const js = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js'))
  const texts = js.map((f) => readFileSync(join(outDir, 'assets', f), 'utf8'))
  // The playground mounts <TandemDevtools /> (playground/src/main.tsx): else this check would prove nothing.
  const main = readFileSync(join(root, 'src/main.tsx'), 'utf8')
  return {
    mounts: main.includes(`from '@tandem/devtools/react'`),
    files: js.length,
    bytes: texts.reduce((n, t) => n + t.length, 0),
    markers: MARKERS.filter((m) => texts.some((t) => t.includes(m))),
  }
}

/** Every devtools figure for results/bundle.json. */
export async function measureDevtools() {
  const rows = []
  for (const row of DEVTOOLS_ROWS) {
    const step = (await chunks(row.source))[row.step]
    rows.push({ id: row.id, name: row.name, min: step.min, gzip: step.gzip, budget: row.budget })
  }
  const outDir = fileURLToPath(new URL('node_modules/.cache/tandem-bench-playground/', ROOT))
  const { mounts, files, bytes, markers } = await playgroundProduction(outDir)
  return {
    rows,
    production: await productionDelta(),
    playground: { mounts, files, bytes, markers },
  }
}
