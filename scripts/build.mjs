// Builds every package to dist/ with plain tsc, in dependency order.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'

const ORDER = ['contract', 'server', 'core', 'realtime', 'react', 'emulator']
for (const name of ORDER) {
  const dir = `packages/${name}`
  rmSync(`${dir}/dist`, { recursive: true, force: true })
  execFileSync('npx', ['tsc', '-p', `${dir}/tsconfig.build.json`], { stdio: 'inherit' })
  console.log(`built @tandem/${name}`)
}
