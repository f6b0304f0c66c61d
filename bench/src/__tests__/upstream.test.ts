// `npm run bench -- upstream` writes down what upstream code Tandem's apps pay for and never run.
// Each piece must still be there to measure: the day ofetch drops ufo and destr, or partysocket its
// long texts, this fails and the written figures are re-measured rather than left stale.
import { describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module without types; the bench and this test share it.
import { measureUpstream, PIECES } from '../upstream.mjs'

interface Row {
  name: string
  size: number
  costs: number[]
  without: number
}

describe('upstream bytes', () => {
  it('each piece costs the apps that ship its package something, and the others nothing', async () => {
    const rows = (await measureUpstream()) as Row[]
    const names = (PIECES as { name: string }[]).map((p) => p.name)
    const cost = (useCase: RegExp, piece: RegExp) => {
      const row = rows.find((r) => useCase.test(r.name))!
      return row.costs[names.findIndex((n) => piece.test(n))]!
    }
    expect(cost(/^maps-only/, /ufo/)).toBeGreaterThan(1_000)
    expect(cost(/^maps-only/, /default instance/)).toBeGreaterThan(0)
    expect(cost(/^maps-only/, /partysocket/)).toBe(0)
    expect(cost(/^realtime-only/, /partysocket/)).toBeGreaterThan(0)
    expect(cost(/^realtime-only/, /ufo/)).toBe(0)
    for (const r of rows) expect(r.without, r.name).toBeLessThanOrEqual(r.size)
  })
})
