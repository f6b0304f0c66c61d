// Package hygiene for every published package: publint --strict and attw (ESM-only profile).
import { execFileSync } from 'node:child_process'

const PACKAGES = ['server', 'core', 'realtime', 'react', 'emulator']
let failed = 0
for (const name of PACKAGES) {
  const dir = `packages/${name}`
  for (const [tool, args] of [
    ['publint', ['publint', '--strict', dir]],
    ['attw', ['attw', '--pack', dir, '--profile', 'esm-only', '--format', 'table-flipped']],
  ]) {
    try {
      execFileSync('npx', ['--no-install', ...args], { stdio: 'pipe', encoding: 'utf8' })
      console.log(`ok   ${tool} @tandem/${name}`)
    } catch (error) {
      failed++
      console.error(`FAIL ${tool} @tandem/${name}\n${error.stdout ?? ''}${error.stderr ?? ''}`)
    }
  }
}
if (failed) process.exit(1)
