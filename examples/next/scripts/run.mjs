// `npm run dev|build|start -w examples/next`: the SDK's packages the app imports are built first
// when their dist is missing or older than their source (Next runs them from dist); for dev and
// start, the emulator on a port of its own, then `next dev` or `next start` with its address in
// TANDEM_URL.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { buildDeps } from './build-deps.mjs'

const MODES = new Set(['dev', 'build', 'start'])
const mode = process.argv[2] ?? 'dev'
if (!MODES.has(mode)) throw new Error(`run.mjs dev|build|start, not ${mode}`)
const next = createRequire(import.meta.url).resolve('next/dist/bin/next')

await buildDeps()
process.chdir(fileURLToPath(new URL('..', import.meta.url)))
if (mode === 'start' && !existsSync('.next/BUILD_ID')) {
  console.error('No production build: run `npm run build -w examples/next` first.')
  process.exit(1)
}

// The build prerenders nothing that reads the services (every page is dynamic): no emulator.
const emulator =
  mode === 'build'
    ? undefined
    : await (await import('@tandem/emulator')).startEmulator({ port: Number(process.env.TANDEM_EMULATOR_PORT ?? 4010) })
if (emulator) console.log(`emulator on ${emulator.url}`)

const child = spawn(process.execPath, [next, mode, ...process.argv.slice(3)], {
  stdio: 'inherit',
  env: emulator ? { ...process.env, TANDEM_URL: emulator.url } : process.env,
})
const stop = () => child.kill('SIGTERM')
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
child.on('exit', (code, signal) => {
  void (emulator?.close() ?? Promise.resolve()).then(() => process.exit(code ?? (signal ? 1 : 0)))
})
