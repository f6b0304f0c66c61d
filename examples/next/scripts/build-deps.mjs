// The SDK packages the example imports, built to dist when their dist is missing or older than
// their source (as scripts/build-stale.mjs does for the playground): Next runs them from dist.
import { fileURLToPath } from 'node:url'
import { buildStale } from '../../../scripts/build.mjs'

// In dependency order.
const ORDER = ['contract', 'server', 'core', 'emulator', 'realtime', 'react', 'next']
const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

export async function buildDeps() {
  const cwd = process.cwd()
  process.chdir(ROOT) // build.mjs works from the repo's root
  try {
    await buildStale(ORDER)
  } finally {
    process.chdir(cwd)
  }
}
