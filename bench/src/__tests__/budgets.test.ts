// The size budgets, deterministic and not timed: each Tandem entry point is bundled from `src`
// with esbuild exactly as `npm run bench` bundles the built packages, and `npm test` fails when
// one grows past its budget, naming the measured size.
import { describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module without types; the bench and this test share its entries.
import { TANDEM, measure } from '../bundle.mjs'
// @ts-expect-error: plain ESM module without types.
import { readFigures } from '../bundle-figures.mjs'

interface Row {
  name?: string
  entry?: string
  gzip: number
}

interface Entry {
  name: string
  source: string
  external?: string[]
  budget: number
  target?: number
}

describe('bundle size budgets (min+gzip, kB = 1,000 bytes)', () => {
  it.each(TANDEM as Entry[])('$name', async (entry) => {
    const { gzip } = await measure(entry.source, { external: entry.external, conditions: ['@tandem/source'] })
    const detail = `${entry.name} is ${(gzip / 1000).toFixed(2)} kB min+gzip; budget ${(entry.budget / 1000).toFixed(2)} kB`
    expect(gzip, detail).toBeLessThanOrEqual(entry.budget)
    // A goal once met is the budget: the row cannot grow back past it.
    if (entry.target !== undefined && gzip <= entry.target)
      expect(entry.budget, `${detail}: the goal ${entry.target} is met, so lower the budget to it`).toBeLessThanOrEqual(
        entry.target,
      )
    // The docs' figures (bench/results/bundle.json, rendered into README.md and docs/architecture.md)
    // are the code's: a change that moves a size re-runs `npm run bench -- bundle`.
    const figures = readFigures() as { useCases: Row[]; entries: Row[] }
    const written = [...figures.useCases, ...figures.entries].find((r) => (r.name ?? r.entry) === entry.name)
    expect(written?.gzip, `${detail}: bench/results/bundle.json says otherwise; run npm run bench -- bundle`).toBe(gzip)
    // A measurement that is implausibly small means the entry no longer bundles what it names.
    expect(gzip, `${detail}: suspiciously small, is the entry empty?`).toBeGreaterThan(entry.budget / 4)
  })

  it('measures what the budgets say: a tiny change to an entry changes its size', async () => {
    const [core] = TANDEM as Entry[]
    const a = await measure(core!.source, { conditions: ['@tandem/source'] })
    const b = await measure(`${core!.source}; export const pad = ${JSON.stringify('x'.repeat(2000))}`, {
      conditions: ['@tandem/source'],
    })
    expect(b.gzip).toBeGreaterThan(a.gzip)
  })
})
