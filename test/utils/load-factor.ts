// The one factor every test deadline scales with: how much slower than a quiet machine this run is
// likely to go, read from the machine's load once, when the run starts. Used by `slack()` and the
// waits' default deadlines (test/utils/wait.ts), Vitest's testTimeout and hookTimeout
// (vite.config.ts) and the browser harness (playground/e2e/harness.ts). Never the time a test
// checks: only the margin around it (CONTRIBUTING.md, "Tests that read the clock").
import { availableParallelism, loadavg } from 'node:os'

/** Vitest's workers at a time (vite.config.ts `maxWorkers`): the run's own share of the load. */
export const WORKERS = 3

/** The floor: a quiet machine's factor. */
const QUIET = 3

/**
 * `TANDEM_SLOW` when set (at least 1): a number chosen by hand. Otherwise the runnable work per core
 * once the run has started: the 1-minute load average when the run began (`TANDEM_LOAD`, which
 * `npm test` reads before its checks load the machine; else the load now) plus the run's own
 * workers, over the cores, doubled: the run's browsers, emulators and servers add their own load on
 * top of its workers. At least 3 (the factor the suite was proven green with on a quiet 2-core
 * machine), to a tenth: 3 there, 5 beside two CPU-bound processes, 14 at a load of 11. Measured once
 * and handed to the workers through `TANDEM_LOAD_FACTOR`.
 */
export function loadFactor(env: NodeJS.ProcessEnv = process.env): number {
  const chosen = Number(env.TANDEM_SLOW)
  if (chosen > 0) return Math.max(1, chosen)
  const measured = Number(env.TANDEM_LOAD_FACTOR)
  if (measured >= 1) return measured
  const load = env.TANDEM_LOAD !== undefined && Number(env.TANDEM_LOAD) >= 0 ? Number(env.TANDEM_LOAD) : loadavg()[0]!
  const factor = Math.max(QUIET, Math.round(((2 * (load + WORKERS)) / availableParallelism()) * 10) / 10)
  env.TANDEM_LOAD_FACTOR = String(factor)
  return factor
}

/** The line a run prints first: the factor and what it came from. */
export function describeLoadFactor(env: NodeJS.ProcessEnv = process.env): string {
  const factor = loadFactor(env)
  const from =
    Number(env.TANDEM_SLOW) > 0
      ? 'TANDEM_SLOW'
      : `load ${Number(env.TANDEM_LOAD ?? loadavg()[0]).toFixed(2)} + ${WORKERS} workers over ${availableParallelism()} cores`
  return `[tandem] test deadlines × ${factor} (${from}; TANDEM_SLOW=<n> to choose)`
}
