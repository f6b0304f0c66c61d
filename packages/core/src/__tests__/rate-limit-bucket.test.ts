// Whose quota an answer describes (`Tandem-RateLimit-Bucket`): the client-side bucket follows the
// bucket the service names (a customer's own 60 a minute), the `rateLimit` event and a
// RateLimitError say which one, and an unknown or absent name is the app's (older services).
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createClient, createRateLimiter, isRateLimitError, type RateLimitState } from '../index.js'

describe('the client-side bucket follows the bucket the service names (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("a customer's bucket re-seeds it: 60 a minute, told as bucket customer, and a wait past the deadline says so", async () => {
    const states: { bucket: string; limit: number; remaining: number }[] = []
    const limiter = createRateLimiter({
      limit: 500,
      intervalMs: 60_000,
      safetyMs: 0,
      now: Date.now,
      onChange: (s) => void states.push(s),
    })
    await limiter.acquire()
    limiter.update({ limit: 60, remaining: 59, bucket: 'customer' }, 0)
    expect(states.at(-1)).toMatchObject({ bucket: 'customer', limit: 60, remaining: 59 })
    let granted = 0
    for (let i = 0; i < 61; i++) void limiter.acquire().then(() => granted++)
    await vi.advanceTimersByTimeAsync(0)
    expect(granted).toBe(59)
    await vi.advanceTimersByTimeAsync(1_000) // a token a second: the customer's pace, not the app's 8⅓
    expect(granted).toBe(60)
    const late = await limiter.acquire(undefined, 10).catch((e: unknown) => e)
    expect(isRateLimitError(late) && late.code === 'rate_limit_wait' && late.bucket).toBe('customer')
    limiter.update({ limit: 500, remaining: 3, bucket: 'app' }, 0) // the app's is now the lower: named, never raised
    expect(states.at(-1)).toMatchObject({ bucket: 'app', limit: 60 })
  })
})

describe('what an answer names, from a hand-written service', () => {
  const servers: Server[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
  })
  async function serve(answer: (res: ServerResponse) => void): Promise<string> {
    const server = createServer((_req, res) => answer(res))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }
  const limited = (headers: Record<string, string>, details?: unknown) => (res: ServerResponse) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1', ...headers })
    res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'slow', status: 429, requestId: 'r', details } }))
  }
  const figures = { 'ratelimit-limit': '60', 'ratelimit-remaining': '0' }

  it.each([
    [
      'the header says customer',
      { ...figures, 'tandem-ratelimit-bucket': 'customer' },
      undefined,
      'customer',
      'customer',
    ],
    ['the header says app', { ...figures, 'tandem-ratelimit-bucket': 'app' }, [{ bucket: 'customer' }], 'app', 'app'],
    ['an unknown name', { ...figures, 'tandem-ratelimit-bucket': '__proto__' }, undefined, 'app', 'app'],
    ['no header (an older service)', figures, undefined, 'app', 'app'],
    ['no header, details name the customer', figures, [{ bucket: 'customer' }], 'customer', 'app'],
    ['details of the wrong shape', figures, [null, 'customer'], 'app', 'app'],
  ])('%s', async (_, headers, details, errorBucket, stateBucket) => {
    const url = await serve(limited(headers, details))
    const client = createClient({
      baseUrl: url,
      auth: { fetchToken: async () => ({ token: 'tok', expiresIn: 600 }) },
      retry: false,
    })
    const states: RateLimitState[] = []
    client.on('rateLimit', (s) => void states.push(s))
    const error = await client.request({ service: 'support', method: 'GET', path: '/v1/me' }).catch((e: unknown) => e)
    expect(isRateLimitError(error)).toBe(true)
    expect((error as { bucket: unknown }).bucket).toBe(errorBucket)
    expect(states.at(-1)?.bucket).toBe(stateBucket)
  })
})
