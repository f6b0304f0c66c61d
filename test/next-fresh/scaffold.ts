// The app a new user has: create-next-app's files (template/: its next.config.ts with
// cacheComponents on, its tsconfig.json, app/layout.tsx and app/page.tsx) with Tandem added as
// docs/next.md says, and the SDK installed from the tarballs `npm pack` makes of the built
// packages. The app lives in the repository's .tmp/ so that what is not ours (next, react, the
// SDK's own dependencies such as ofetch) resolves from the repository's node_modules, as `npm ci`
// installed it: no registry is needed.
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { buildDeps } from '../../examples/next/scripts/build-deps.mjs'
import { published } from '../../scripts/pack-manifest.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TEMPLATE = fileURLToPath(new URL('./template', import.meta.url))
/** What the app installs: @tandem/next and its peers, and theirs. */
const PACKAGES = ['contract', 'server', 'core', 'realtime', 'react', 'next']
const run = promisify(execFile)

/**
 * `npm pack` of a copy of the package as it is published (the manifest its prepack writes), so
 * that packing never rewrites the working package.json others read meanwhile (check-packages.mjs
 * packs the same way). Returns the tarball's path.
 */
async function pack(name: string, into: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `tandem-fresh-${name}-`))
  try {
    const from = join(ROOT, 'packages', name)
    cpSync(from, dir, { recursive: true, filter: (src) => !relative(from, src).split(sep).includes('node_modules') })
    const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')) as { exports?: unknown }
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(published(manifest), null, 2)}\n`)
    cpSync(join(ROOT, 'LICENSE'), join(dir, 'LICENSE'))
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], {
      cwd: dir,
    })
    return join(into, (JSON.parse(stdout) as { filename: string }[])[0]!.filename)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Writes a fresh app into a new folder of .tmp/next-fresh (one per run: runs side by side do not
 * share one) and returns it; `remove` it when done. With `cacheComponents: false`, its
 * next.config.ts has neither that flag nor `partialPrefetching` (which needs it): Next.js 16 before
 * 16.4's create-next-app, or an app that turned them off.
 */
export async function scaffold({ cacheComponents = true } = {}): Promise<{ app: string; remove: () => void }> {
  await buildDeps()
  const base = join(ROOT, '.tmp', 'next-fresh')
  mkdirSync(base, { recursive: true })
  const app = mkdtempSync(join(base, 'app-'))
  const packs = mkdtempSync(join(tmpdir(), 'tandem-fresh-packs-'))
  try {
    cpSync(TEMPLATE, app, { recursive: true })
    if (!cacheComponents) {
      const config = join(app, 'next.config.ts')
      const off = readFileSync(config, 'utf8').replace(/^ {2}(cacheComponents|partialPrefetching): true,\n/gm, '')
      if (/cacheComponents|partialPrefetching/.test(off))
        throw new Error(`next.config.ts: cacheComponents still on:\n${off}`)
      writeFileSync(config, off)
    }
    const tarballs = await Promise.all(PACKAGES.map((p) => pack(p, packs)))
    // What `npm install <tarball>` puts in node_modules: the package folder, unpacked.
    for (const [i, tarball] of tarballs.entries()) {
      const into = join(app, 'node_modules', '@tandem', PACKAGES[i]!)
      mkdirSync(into, { recursive: true })
      await run('tar', ['-xzf', tarball, '-C', into, '--strip-components=1'])
    }
  } finally {
    rmSync(packs, { recursive: true, force: true })
  }
  return { app, remove: () => rmSync(app, { recursive: true, force: true }) }
}
