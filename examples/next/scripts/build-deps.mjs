// The SDK packages the example imports, built to dist when their dist is missing or older than
// their source (as scripts/build-stale.mjs does for the playground): Next runs them from dist.
import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build, newest } from '../../../scripts/build.mjs'

// In dependency order: a package after a rebuilt one is rebuilt too (its declarations changed).
const ORDER = ['contract', 'server', 'core', 'emulator', 'realtime', 'react', 'next']
const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

export async function buildDeps() {
  const cwd = process.cwd()
  process.chdir(ROOT) // build.mjs works from the repo's root
  try {
    let rebuilt = false
    for (const name of ORDER) {
      const dir = `packages/${name}`
      const inputs = Math.max(newest(`${dir}/src`), statSync(`${dir}/package.json`).mtimeMs)
      if (!rebuilt && newest(`${dir}/dist`) >= inputs) continue
      await build(name)
      rebuilt = true
    }
  } finally {
    process.chdir(cwd)
  }
}
