// `npm test`: the checks, then `vitest run`. The checks are independent of each other but for
// build → check:packages, and each is mostly one busy thread, so they run as many at a time as
// the machine has cores (two on a 2-core machine), the longest first. Each one's output is kept and
// printed when it ends: a failure shows under its own name, whole, and stops the run before Vitest.
// Arguments go to Vitest (`npm test -- --project core`).
import { spawn } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'

/** npm scripts (package.json), longest first on a quiet 2-core machine; `after`: must end first. */
const CHECKS = [
  { name: 'lint', after: [] },
  { name: 'build', after: [] },
  // It packs copies of the packages (the working package.json files stay as they are), from dist.
  { name: 'check:packages', after: ['build'] },
  { name: 'typecheck', after: [] },
  { name: 'format:check', after: [] },
  { name: 'check:cycles', after: [] },
  { name: 'lint:contract', after: [] },
]
const SLOTS = Math.max(1, Number(process.env.TANDEM_CHECK_JOBS) || availableParallelism())
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`

/** Runs `npm run <name>`; resolves with whether it passed (its output is printed if not). */
function run(name) {
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('error', (e) => (output += `${e.stack ?? e}\n`))
    child.on('close', (code, signal) => {
      const ok = code === 0
      if (ok) console.log(`ok   ${name} (${seconds(started)})`)
      else console.error(`FAIL ${name} (${seconds(started)}, ${signal ?? `exit ${code}`})\n${output.trimEnd()}\n`)
      resolve(ok)
    })
  })
}

// The machine's load before the checks add theirs: Vitest scales its deadlines from it (the one load
// factor, test/utils/load-factor.ts), and five minutes of checks would otherwise read as a busy machine.
const loadAtStart = process.env.TANDEM_LOAD ?? loadavg()[0].toFixed(2)

const started = performance.now()
const done = new Map()
const failed = []
const waiting = [...CHECKS]
await new Promise((resolve) => {
  let running = 0
  const next = () => {
    while (running < SLOTS) {
      const i = waiting.findIndex((c) => c.after.every((a) => done.has(a)))
      if (i === -1) break
      const [check] = waiting.splice(i, 1)
      const failedBefore = check.after.filter((a) => !done.get(a))
      if (failedBefore.length) {
        console.error(`skip ${check.name} (${failedBefore.join(', ')} failed)`)
        done.set(check.name, false)
        failed.push(check.name)
        continue
      }
      running++
      void run(check.name).then((ok) => {
        running--
        done.set(check.name, ok)
        if (!ok) failed.push(check.name)
        next()
      })
    }
    if (running === 0 && waiting.length === 0) resolve()
  }
  next()
})
console.log(`checks: ${seconds(started)} with ${SLOTS} at a time`)
if (failed.length) {
  console.error(`failed: ${failed.join(', ')}`)
  process.exit(1)
}

const vitest = spawn('node_modules/.bin/vitest', ['run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TANDEM_LOAD: loadAtStart },
})
vitest.on('close', (code, signal) => {
  console.log(`npm test: ${seconds(started)} in all`)
  process.exit(code ?? (signal ? 1 : 0))
})
