// Builds every package to dist/ with plain tsc, level by level: a package's declarations are
// checked against the dist of the packages it imports, so those come in an earlier level; the
// packages of one level build side by side (tsc is one busy thread each).
//
// Incremental (the build info in node_modules/.cache/tsc/): tsc checks again only what changed,
// here or in the declarations a package imports, and writes only what changed: a warm build of
// every package took 29 s from scratch beside the other checks. tsc neither writes an output
// that went missing while its source did not change, nor deletes the outputs of a source that is
// gone, so a dist that lacks an output is built whole, and outputs without a source are removed.
// (`tsc -b` checks outputs, but it takes a package whose imported declarations changed for up to date.)
// A dist file newer than the build info was written by something else (tsc writes the build info
// last), so tsc's idea of dist may be wrong: that dist is built whole too.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'

const LEVELS = [
  ['contract', 'elements'],
  ['server', 'core'],
  ['emulator', 'realtime'],
  ['react', 'messenger'],
  ['devtools', 'next'],
]
// tsc itself, not `npx tsc`: npx costs a start of its own per package.
const TSC = 'node_modules/.bin/tsc'
const CACHE = 'node_modules/.cache/tsc'
/** What tsc writes for one source, e.g. `a.js`, `a.js.map`, `a.d.ts`, `a.d.ts.map` for `a.ts`. */
const OUTPUTS = ['.js', '.js.map', '.d.ts', '.d.ts.map']

/** The package's sources as they appear in dist (`sub/file`, no extension); tests are not built. */
function sources(dir) {
  return readdirSync(`${dir}/src`, { recursive: true, encoding: 'utf8' })
    .map((f) => f.replaceAll('\\', '/'))
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !f.split('/').includes('__tests__'))
    .map((f) => f.replace(/\.tsx?$/, ''))
}

/** The newest modification time (ms) of any file under `dir` (0 when there is none). */
export function newest(dir) {
  if (!existsSync(dir)) return 0
  let max = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    max = Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return max
}

/** Whether the package's dist has every output of every source. */
export function distComplete(name) {
  const dir = `packages/${name}`
  return sources(dir).every((s) => OUTPUTS.every((ext) => existsSync(`${dir}/dist/${s}${ext}`)))
}

/** Builds one package (`contract`, `core`, …) to its dist, incrementally. */
export async function build(name) {
  const dir = `packages/${name}`
  const info = join(CACHE, `build-${name}.tsbuildinfo`)
  const stems = sources(dir)
  if (!distComplete(name) || !existsSync(info) || newest(`${dir}/dist`) > statSync(info).mtimeMs) {
    rmSync(`${dir}/dist`, { recursive: true, force: true })
    rmSync(info, { force: true })
  }
  mkdirSync(CACHE, { recursive: true })
  try {
    const args = ['-p', `${dir}/tsconfig.build.json`, '--incremental', '--tsBuildInfoFile', info]
    await promisify(execFile)(TSC, args, { encoding: 'utf8' })
  } catch (error) {
    throw new Error(`@tandem/${name} did not build:\n${error.stdout ?? ''}${error.stderr ?? error.message}`, {
      cause: error,
    })
  }
  const wanted = new Set(stems.flatMap((s) => OUTPUTS.map((ext) => `${s}${ext}`)))
  for (const file of readdirSync(`${dir}/dist`, { recursive: true, withFileTypes: true })) {
    if (!file.isFile()) continue
    const path = join(file.parentPath ?? file.path, file.name)
    if (!wanted.has(path.slice(`${dir}/dist/`.length).replaceAll('\\', '/'))) rmSync(path)
  }
  // The messenger's self-contained browser build, from the dist just built (and those before it);
  // imported here alone, so that the other packages' builds need neither it nor esbuild.
  if (name === 'messenger') await (await import('./build-browser.mjs')).buildMessengerBrowser()
  // tsc rewrites neither dist nor its build info when nothing changed: the build info's time is
  // then the one record that dist was brought up to date now (buildStale reads it).
  const now = new Date()
  if (existsSync(info)) utimesSync(info, now, now)
  console.log(`built @tandem/${name}`)
}

/** When the package's dist was last brought up to date (ms; 0 when it has none). */
export function builtAt(name) {
  const dist = `packages/${name}/dist`
  if (!existsSync(dist)) return 0
  const info = join(CACHE, `build-${name}.tsbuildinfo`)
  return Math.max(newest(dist), existsSync(info) ? statSync(info).mtimeMs : 0)
}

/**
 * Builds the packages of `order` (dependency order) whose dist is missing or older than their
 * source; a package after a rebuilt one is rebuilt too (its declarations are checked against the
 * new ones). A source newer than dist whose build changed nothing (a fresh checkout's mtimes, an
 * edit undone) is built once, not on every start: `build` records the time (`builtAt`).
 */
export async function buildStale(order) {
  let rebuilt = false
  for (const name of order) {
    const dir = `packages/${name}`
    const inputs = Math.max(newest(`${dir}/src`), statSync(`${dir}/package.json`).mtimeMs)
    if (!rebuilt && builtAt(name) >= inputs) continue
    await build(name)
    rebuilt = true
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const level of LEVELS) await Promise.all(level.map(build))
}
