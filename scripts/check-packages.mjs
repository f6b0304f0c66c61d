// Package hygiene for every published package: publint --strict and attw (ESM-only profile), then
// a consumer's app (test/consumer) type-checked against the built `dist` types with this
// repository's TypeScript and with the oldest one we support (5.4: `NoInfer` in the public types).
import { execFileSync } from 'node:child_process'

const PACKAGES = ['server', 'core', 'realtime', 'react', 'emulator']
const MIN_TYPESCRIPT = 'test/consumer/node_modules/typescript/bin/tsc'
let failed = 0

function check(label, command, args) {
  try {
    execFileSync(command, args, { stdio: 'pipe', encoding: 'utf8' })
    console.log(`ok   ${label}`)
  } catch (error) {
    failed++
    console.error(`FAIL ${label}\n${error.stdout ?? ''}${error.stderr ?? ''}`)
  }
}

for (const name of PACKAGES) {
  const dir = `packages/${name}`
  check(`publint @tandem/${name}`, 'npx', ['--no-install', 'publint', '--strict', dir])
  check(`attw @tandem/${name}`, 'npx', [
    '--no-install',
    'attw',
    '--pack',
    dir,
    '--profile',
    'esm-only',
    '--format',
    'table-flipped',
  ])
}
check('consumer types (TypeScript of this repo)', 'npx', ['--no-install', 'tsc', '-p', 'test/consumer'])
check('consumer types (TypeScript 5.4, the minimum)', 'node', [MIN_TYPESCRIPT, '-p', 'test/consumer'])
if (failed) process.exit(1)
