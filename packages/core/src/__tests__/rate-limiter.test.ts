import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createRateLimiter, isAbortError } from '../index.js'

describe('rate limiter (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('lets a full bucket through at once, then queues in FIFO order at the refill rate', async () => {
    const limiter = createRateLimiter({ limit: 3, intervalMs: 3_000, safetyMs: 0, now: Date.now })
    const order: number[] = []
    const all = Array.from({ length: 6 }, (_, i) => limiter.acquire().then(() => order.push(i)))
    await vi.advanceTimersByTimeAsync(0)
    expect(order).toEqual([0, 1, 2])
    expect(limiter.queued).toBe(3)
    await vi.advanceTimersByTimeAsync(999)
    expect(order).toEqual([0, 1, 2])
    await vi.advanceTimersByTimeAsync(1)
    expect(order).toEqual([0, 1, 2, 3])
    await vi.advanceTimersByTimeAsync(2_000)
    await Promise.all(all)
    expect(order).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('starts refilling safetyMs late after leaving a full bucket', async () => {
    const limiter = createRateLimiter({ limit: 1, intervalMs: 1_000, safetyMs: 200, now: Date.now })
    await limiter.acquire()
    let done = false
    void limiter.acquire().then(() => {
      done = true
    })
    await vi.advanceTimersByTimeAsync(1_199)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(done).toBe(true)
  })

  it('an aborted waiter leaves the queue with an AbortError', async () => {
    const limiter = createRateLimiter({ limit: 1, intervalMs: 1_000, safetyMs: 0, now: Date.now })
    await limiter.acquire()
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)
    expect(limiter.queued).toBe(1)
    controller.abort()
    expect(isAbortError(await waiting.catch((e: unknown) => e))).toBe(true)
    expect(limiter.queued).toBe(0)
  })

  it('re-seeds downward from RateLimit-Remaining, counting its own in-flight requests', async () => {
    const limiter = createRateLimiter({ limit: 10, intervalMs: 10_000, safetyMs: 0, now: Date.now })
    await limiter.acquire()
    limiter.update({ remaining: 5 }, 2) // another client used some: 5 left, 2 of ours not yet counted there
    let granted = 0
    for (let i = 0; i < 5; i++) void limiter.acquire().then(() => granted++)
    await vi.advanceTimersByTimeAsync(0)
    expect(granted).toBe(3)
    limiter.update({ remaining: 100 }, 0) // never raised
    await vi.advanceTimersByTimeAsync(0)
    expect(granted).toBe(3)
    expect(limiter.queued).toBe(2)
    await vi.advanceTimersByTimeAsync(1_000) // one refill: one more, never the burst
    expect(granted).toBe(4)
  })

  it('follows a smaller plan from RateLimit-Limit, never a larger one', async () => {
    const limiter = createRateLimiter({ limit: 10, intervalMs: 1_000, safetyMs: 0, now: Date.now })
    limiter.update({ limit: 1_000 }, 0)
    let granted = 0
    for (let i = 0; i < 20; i++) void limiter.acquire().then(() => granted++)
    await vi.advanceTimersByTimeAsync(0)
    expect(granted).toBe(10)
  })

  it('a pause far beyond 2^31 ms does not spin a timer every millisecond', async () => {
    const limiter = createRateLimiter({ limit: 1, intervalMs: 1_000, safetyMs: 0, now: Date.now })
    limiter.pause(2 ** 33)
    void limiter.acquire()
    expect(vi.getTimerCount()).toBe(1)
    await vi.advanceTimersByTimeAsync(100)
    expect(vi.getTimerCount()).toBe(1)
  })

  it('pause() holds everything for the given time (a 429 Retry-After)', async () => {
    const limiter = createRateLimiter({ limit: 100, intervalMs: 1_000, safetyMs: 0, now: Date.now })
    limiter.pause(1_000)
    let done = false
    void limiter.acquire().then(() => {
      done = true
    })
    await vi.advanceTimersByTimeAsync(999)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(11)
    expect(done).toBe(true)
  })
})
