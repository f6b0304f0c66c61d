// Rate-limit waits an app can see and bound: the queue is announced as it changes (position and
// the wait ahead), an aborted request leaves it at once, and maxQueueWaitMs fails early with the
// estimated wait. Against the emulator, with a client-side bucket of 2 requests per second.
import { describe, expect, it, vi } from 'vitest'
import { isRateLimitError, watchRateLimit, type RateLimitState, type RateLimitWaitEvent } from '../index.js'
import { setup } from './helpers.js'
import { slack, tick, within } from '../../../../test/utils/wait.js'

const BUCKET = { limit: 2, intervalMs: 1_000 } // a slot every 500 ms once the burst of 2 is spent

describe('rate-limit waits made visible', () => {
  it('a request that queues is announced with its position and wait; the store follows', async () => {
    const { client } = await setup({ client: { services: { maps: { rateLimit: BUCKET } } } })
    const states: RateLimitState[] = []
    client.on('rateLimit', (s) => void states.push(s))
    const waits: RateLimitWaitEvent[] = []
    client.on('rateLimitWait', (e) => void waits.push(e))
    const store = watchRateLimit(client, 'maps')
    const seen: number[] = []
    const off = store.subscribe(() => seen.push(store.getSnapshot().queued))
    const calls = Array.from({ length: 4 }, () => client.maps.resources.list({ limit: 1 }))
    // After the token: the burst of 2 goes at once, 2 queue (in order, each announced).
    await vi.waitFor(() => expect(states.map((s) => s.queued)).toEqual([1, 2]), { timeout: 2_000, interval: 5 })
    expect(states[1]!.waitMs).toBeGreaterThan(states[0]!.waitMs) // the second waits behind the first
    expect(store.getSnapshot()).toMatchObject({ queued: 2 })
    expect(store.getSnapshot().until).toBeGreaterThan(Date.now())
    await Promise.all(calls)
    expect(states.at(-1)).toMatchObject({ service: 'maps', queued: 0, waitMs: 0 })
    expect(seen.at(-1)).toBe(0)
    expect(store.getSnapshot()).toEqual({ queued: 0, waitMs: 0, until: 0, bucket: 'app' })
    expect(waits.map((w) => w.reason)).toEqual(['bucket', 'bucket']) // the client's own pace, not the service's
    off()
  })

  it('aborted requests leave the queue at once: the next one waits one slot, not theirs', async () => {
    const { client } = await setup({ client: { services: { maps: { rateLimit: BUCKET } } } })
    const states: RateLimitState[] = []
    client.on('rateLimit', (s) => void states.push(s))
    await Promise.all([client.maps.resources.list({ limit: 1 }), client.maps.resources.list({ limit: 1 })])
    // 50 aborted: were their slots still ahead of the next call, it would wait 25 s, far past any deadline here.
    const superseded = Array.from({ length: 50 }, () => new AbortController())
    const calls = superseded.map((c) => client.maps.resources.list({ limit: 1 }, { signal: c.signal }).catch((e) => e))
    await vi.waitFor(() => expect(states.at(-1)?.queued).toBe(50), { timeout: 2_000, interval: 5 })
    for (const c of superseded) c.abort()
    expect(states.at(-1)).toMatchObject({ queued: 0 }) // at once, not as their turns come
    for (const e of await Promise.all(calls)) expect(e).toMatchObject({ name: 'AbortError' })
    const next = client.maps.resources.list({ limit: 1 })
    await vi.waitFor(() => expect(states.at(-1)?.queued).toBe(1), { timeout: 2_000, interval: 5 })
    expect(states.at(-1)!.waitMs).toBeLessThanOrEqual(750) // one slot (500 ms + the 200 ms safety), not 51
    await within(next, Math.min(slack(3_000), 20_000), 'the next call, one slot later (not 50)')
  })

  it('maxQueueWaitMs fails a request early with a RateLimitError carrying the estimated wait', async () => {
    const { client } = await setup({ client: { services: { maps: { rateLimit: BUCKET } }, maxQueueWaitMs: 5_000 } })
    await Promise.all([client.maps.resources.list({ limit: 1 }), client.maps.resources.list({ limit: 1 })])
    const call = client.maps.resources.list({ limit: 1 }, { maxQueueWaitMs: 100 }).catch((e: unknown) => e)
    // Failed at once, not after waiting: it settles before the next macrotask (no timer, no I/O), so
    // however busy the machine, a call that waited its 100 ms (or for its slot) would lose this race.
    expect(await Promise.race([call.then(() => 'the call'), tick().then(() => 'a macrotask')])).toBe('the call')
    const error = await call
    expect(isRateLimitError(error)).toBe(true)
    expect(error).toMatchObject({ code: 'rate_limit_wait' })
    expect((error as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(100)
    // The client's bound applies too, and bad bounds are refused before anything is sent.
    await expect(client.maps.resources.list({ limit: 1 }, { maxQueueWaitMs: -1 })).rejects.toMatchObject({
      name: 'ValidationError',
    })
  })

  it("a 429's Retry-After wait shows too: the retry waits in the paused queue, announced, then goes", async () => {
    const { emu, client } = await setup()
    const states: RateLimitState[] = []
    client.on('rateLimit', (s) => void states.push(s))
    const waits: RateLimitWaitEvent[] = []
    client.on('rateLimitWait', (e) => void waits.push(e))
    const store = watchRateLimit(client, 'maps')
    const off = store.subscribe(() => {})
    emu.faults.rateLimitNext(1, { service: 'maps', retryAfterSeconds: 1 })
    const started = Date.now()
    const call = client.maps.resources.list({ limit: 1 })
    await vi.waitFor(() => expect(store.getSnapshot().queued).toBe(1), { timeout: 2_000, interval: 5 })
    const waiting = states.find((s) => s.queued === 1)!
    expect(waiting).toMatchObject({ service: 'maps' })
    expect(waiting.waitMs).toBeGreaterThan(500) // the rest of the service's 1 s
    expect(waiting.waitMs).toBeLessThanOrEqual(1_000)
    expect((await call).data).toHaveLength(1)
    expect(Date.now() - started).toBeGreaterThanOrEqual(990) // Retry-After kept
    expect(waits).toMatchObject([{ service: 'maps', reason: 'retry-after' }]) // the service's wait, named as such
    expect(store.getSnapshot()).toEqual({ queued: 0, waitMs: 0, until: 0, bucket: 'app' })
    off()
  })
})
