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
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'

const LEVELS = [
  ['contract'],
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

/** Builds one package (`contract`, `core`, …) to its dist, incrementally. */
export async function build(name) {
  const dir = `packages/${name}`
  const info = join(CACHE, `build-${name}.tsbuildinfo`)
  const stems = sources(dir)
  const complete = stems.every((s) => OUTPUTS.every((ext) => existsSync(`${dir}/dist/${s}${ext}`)))
  if (!complete || !existsSync(info) || newest(`${dir}/dist`) > statSync(info).mtimeMs) {
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
  console.log(`built @tandem/${name}`)
}

/**
 * Builds the packages of `order` (dependency order) whose dist is missing or older than their
 * source; a package after a rebuilt one is rebuilt too (its declarations are checked against the
 * new ones). `build` is incremental, so the newest file of dist says when it was last brought up to date.
 */
export async function buildStale(order) {
  let rebuilt = false
  for (const name of order) {
    const dir = `packages/${name}`
    const inputs = Math.max(newest(`${dir}/src`), statSync(`${dir}/package.json`).mtimeMs)
    if (!rebuilt && newest(`${dir}/dist`) >= inputs) continue
    await build(name)
    rebuilt = true
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const level of LEVELS) await Promise.all(level.map(build))
}
