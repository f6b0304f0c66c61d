// One production build of the example (`next build`, as .ci/run needs it), then `next start` on a
// free port beside an emulator in this process; the test file gets both addresses through inject().
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startEmulator, type Emulator } from '@tandem/emulator'
import type { TestProject } from 'vitest/node'
import { buildDeps } from '../scripts/build-deps.mjs'
import { freePort } from '../../../test/utils/http-server.js'

declare module 'vitest' {
  export interface ProvidedContext {
    nextUrl: string
    emulatorUrl: string
  }
}

const APP = fileURLToPath(new URL('..', import.meta.url))
const NEXT = createRequire(import.meta.url).resolve('next/dist/bin/next')

/** Polls `url` until it answers, for at most `timeoutMs`; rejects with the server's output if it exits first. */
async function until(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output()}`)
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) })
      return
    } catch {
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  throw new Error(`next start did not answer at ${url} in ${timeoutMs} ms:\n${output()}`)
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await buildDeps()
  const started = performance.now()
  await promisify(execFile)(process.execPath, [NEXT, 'build'], {
    cwd: APP,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    maxBuffer: 16 * 1024 * 1024,
  })
  console.log(`next build: ${((performance.now() - started) / 1000).toFixed(1)} s`)

  const emulator: Emulator = await startEmulator({ port: 0 })
  const port = await freePort()
  const child = spawn(process.execPath, [NEXT, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: APP,
    env: { ...process.env, TANDEM_URL: emulator.url, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const url = `http://127.0.0.1:${port}`
  await until(url, child, () => output, 60_000)
  project.provide('nextUrl', url)
  project.provide('emulatorUrl', emulator.url)

  return async () => {
    child.kill('SIGTERM')
    await emulator.close()
  }
}
