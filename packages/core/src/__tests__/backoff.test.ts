// The one backoff: every delay in core is `fullJitter`, and a wait that must never be near zero
// says so with its `floor` (a share of the step), not with a formula of its own.
import { describe, expect, it } from 'vitest'
import { fullJitter } from '../backoff.js'

describe('fullJitter', () => {
  it('is uniform in [0, step] by default, and in [floor·step, step] with a floor', () => {
    // attempt 2 of base 100, cap 10 s: the step is 400 ms.
    expect(fullJitter(2, 100, 10_000, () => 0)).toBe(0)
    expect(fullJitter(2, 100, 10_000, () => 0.999_999)).toBe(399)
    expect(fullJitter(2, 100, 10_000, () => 0, 0.5)).toBe(200)
    expect(fullJitter(2, 100, 10_000, () => 0.5, 0.5)).toBe(300)
    expect(fullJitter(2, 100, 10_000, () => 0.999_999, 0.5)).toBe(399)
  })

  it('never passes the cap, however many attempts (no Infinity, no overflow)', () => {
    expect(fullJitter(5_000, 1_000, 30_000, () => 0.999_999, 0.5)).toBe(29_999)
    expect(fullJitter(5_000, 1_000, 30_000, () => 0, 0.5)).toBe(15_000)
  })
})
