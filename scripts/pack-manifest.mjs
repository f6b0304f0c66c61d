// Run by npm in a package's folder around `npm pack` / `npm publish` (its prepack and postpack scripts).
//
// prepack:  copies the repository's LICENSE into the package, and writes the package.json that is
//           published: without the `@tandem/source` export condition (it points at `src/*.ts` for
//           the monorepo's own tests and playground; consumers resolve `dist`). `src/` itself is
//           shipped on purpose: the `.js.map` and `.d.ts.map` files in `dist` point into it, so
//           "go to definition" and stack traces land on the TypeScript source.
// postpack: puts the working package.json back and removes the copied LICENSE.
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const CONDITION = '@tandem/source'
const BACKUP = 'package.json.orig'

/** A copy of an `exports` value with every `@tandem/source` key removed, at any depth. */
function strip(value) {
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== CONDITION)
      .map(([key, v]) => [key, strip(v)]),
  )
}

/** The manifest as published: `manifest` with its `exports` stripped of the `@tandem/source` condition. */
export function published(manifest) {
  return { ...manifest, exports: strip(manifest.exports) }
}

/** npm's prepack and postpack, run in a package's folder. */
function run(step) {
  if (step === 'prepack') {
    // A backup left by an interrupted pack is the real manifest: never overwrite it.
    if (!existsSync(BACKUP)) copyFileSync('package.json', BACKUP)
    const manifest = published(JSON.parse(readFileSync(BACKUP, 'utf8')))
    writeFileSync('package.json', `${JSON.stringify(manifest, null, 2)}\n`)
    copyFileSync('../../LICENSE', 'LICENSE')
  } else if (step === 'postpack') {
    if (existsSync(BACKUP)) renameSync(BACKUP, 'package.json')
    rmSync('LICENSE', { force: true })
  } else {
    console.error('usage: node pack-manifest.mjs prepack|postpack')
    process.exit(1)
  }
}

// As a script (npm's lifecycle), not when scripts/check-packages.mjs imports `published`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Never a tarball without an up-to-date dist: built first, or the pack refused (scripts/pack-dist.mjs).
  if (process.argv[2] === 'prepack') await (await import('./pack-dist.mjs')).ensureDist(process.cwd())
  run(process.argv[2])
}
