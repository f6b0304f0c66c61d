// A fixed, replayable seed per test file, and a small deterministic PRNG.
import { onTestFailed } from 'vitest'

/** `SEED` from the environment (decimal or 0x hex), else `fallback`. */
export function seedFrom(fallback: number): number {
  const raw = process.env.SEED
  if (raw === undefined || raw.trim() === '') return fallback >>> 0
  const n = Number(raw)
  if (!Number.isInteger(n)) throw new Error(`SEED must be an integer, got ${JSON.stringify(raw)}`)
  return n >>> 0
}

/** What to type to replay this run; goes into every assertion message. */
export const replay = (seed: number, file: string): string => `seed=${seed} (replay: SEED=${seed} npx vitest run --project reliability ${file})`

/** Prints the replay line when the current test fails (call inside a test). */
export function printSeedOnFailure(seed: number, file: string): void {
  onTestFailed(() => {
    console.error(`\n[reliability] ${file} failed with ${replay(seed, file)}\n`)
  })
}

export type Random = () => number

/** mulberry32: small, fast, good enough for scheduling faults; same seed → same sequence. */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** An integer in [min, max]. */
export const between = (random: Random, min: number, max: number): number => min + Math.floor(random() * (max - min + 1))
