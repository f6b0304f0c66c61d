// Builds every package to dist/ with plain tsc, level by level: a package's declarations are
// checked against the dist of the packages it imports, so those come in an earlier level; the
// packages of one level build side by side (tsc is one busy thread each).
import { execFile } from 'node:child_process'
import { rmSync } from 'node:fs'
import { promisify } from 'node:util'

const LEVELS = [['contract', 'server'], ['core', 'emulator'], ['realtime'], ['react']]
// tsc itself, not `npx tsc`: npx costs a start of its own per package.
const TSC = 'node_modules/.bin/tsc'

async function build(name) {
  const dir = `packages/${name}`
  rmSync(`${dir}/dist`, { recursive: true, force: true })
  try {
    await promisify(execFile)(TSC, ['-p', `${dir}/tsconfig.build.json`], { encoding: 'utf8' })
  } catch (error) {
    throw new Error(`@tandem/${name} did not build:\n${error.stdout ?? ''}${error.stderr ?? error.message}`, {
      cause: error,
    })
  }
  console.log(`built @tandem/${name}`)
}

for (const level of LEVELS) await Promise.all(level.map(build))
