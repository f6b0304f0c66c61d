// A fixed, replayable seed per test file, and a small deterministic PRNG.
import { mulberry32, type Random } from '@tandem/emulator'
import { onTestFailed } from 'vitest'

// The emulator's own PRNG, so a seed means the same sequence on both sides.
export { mulberry32, type Random }

/** `SEED` from the environment (decimal or 0x hex), else `fallback`. */
export function seedFrom(fallback: number): number {
  const raw = process.env.SEED
  if (raw === undefined || raw.trim() === '') return fallback >>> 0
  const n = Number(raw)
  if (!Number.isInteger(n)) throw new Error(`SEED must be an integer, got ${JSON.stringify(raw)}`)
  return n >>> 0
}

/** What to type to replay this run; goes into every assertion message. */
export const replay = (seed: number, file: string): string =>
  `seed=${seed} (replay: SEED=${seed} npx vitest run --project reliability ${file})`

/** Prints the replay line when the current test fails (call inside a test). */
export function printSeedOnFailure(seed: number, file: string): void {
  onTestFailed(() => {
    console.error(`\n[reliability] ${file} failed with ${replay(seed, file)}\n`)
  })
}

/** An integer in [min, max]. */
export const between = (random: Random, min: number, max: number): number =>
  min + Math.floor(random() * (max - min + 1))
