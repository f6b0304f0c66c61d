// Attempt signals: the timeout of each attempt, shared by the attempts that end in the same slice of
// time, but never by so many that fetch's per-request listeners pile up on one signal.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { attemptSignal as ownSignal, createAttemptSignals } from '../attempt-signals.js'

afterEach(() => void vi.useRealTimers())

describe('attempt signals', () => {
  it('attempts ending in the same slice share a signal, at most 16 to one, and every one times out', () => {
    vi.useFakeTimers() // the clock stands still: all 40 end in the same slice
    const attemptSignal = createAttemptSignals()
    const guards = Array.from({ length: 40 }, () => attemptSignal(undefined, 15_000))
    const uses = new Map<AbortSignal, number>()
    for (const { signal } of guards) uses.set(signal, (uses.get(signal) ?? 0) + 1)
    expect([...uses.values()]).toEqual([16, 16, 8])
    vi.advanceTimersByTime(14_999)
    expect(guards.some((g) => g.signal.aborted || g.timedOut())).toBe(false)
    vi.advanceTimersByTime(15_000 / 50) // the slice's end
    expect(guards.every((g) => g.signal.aborted && g.timedOut())).toBe(true)
  })

  it("an attempt with the caller's signal has its own, which the caller's abort aborts", () => {
    vi.useFakeTimers()
    const attemptSignal = createAttemptSignals()
    const caller = new AbortController()
    const a = attemptSignal(caller.signal, 15_000)
    const b = attemptSignal(caller.signal, 15_000)
    expect(a.signal).not.toBe(b.signal)
    caller.abort(new Error('gone'))
    expect(a.signal.aborted && b.signal.aborted).toBe(true)
    expect(a.timedOut()).toBe(false)
    a.dispose()
    b.dispose()
  })

  it("the token provider's own signal: never shared, and it times out at its exact timeout, not a slice's end", () => {
    vi.useFakeTimers()
    const a = ownSignal(undefined, 15_000)
    const b = ownSignal(undefined, 15_000)
    expect(a.signal).not.toBe(b.signal)
    vi.advanceTimersByTime(14_999)
    expect(a.signal.aborted || a.timedOut()).toBe(false)
    vi.advanceTimersByTime(1)
    expect(a.signal.aborted && a.timedOut()).toBe(true)
    const c = ownSignal(undefined, 15_000)
    c.dispose() // its timer is cleared: it never times out
    vi.advanceTimersByTime(15_000)
    expect(c.signal.aborted || c.timedOut()).toBe(false)
  })
})
