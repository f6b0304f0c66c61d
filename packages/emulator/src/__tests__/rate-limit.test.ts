import { describe, expect, it } from 'vitest'
import { DEV_APP } from '../defaults.js'
import { RateLimiter } from '../rate-limiter.js'
import { call, expectError, useEmulator } from './helpers.js'

const OTHER = { appId: 'app_b', keys: [{ id: 'key_b', secret: 'secret_b' }] }
// 5 a minute: a token comes back every 12 s, so the six requests are "immediate" however slow the
// machine (at 5 a second, a busy one refilled a token between them and the 6th was answered).
const emu = useEmulator({ apps: [DEV_APP, OTHER], plans: { maps: { limit: 5, windowMs: 60_000 }, support: false } })

describe('rate limiting over HTTP', () => {
  it('the 6th immediate request is 429 with Retry-After; headers count down', async () => {
    emu().reset()
    const token = await emu().mintToken()
    const remaining: string[] = []
    const reset: string[] = []
    for (let i = 0; i < 5; i++) {
      const res = await call(emu(), '/maps/v1/resources?limit=1', { token })
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe('5')
      remaining.push(res.headers.get('ratelimit-remaining') ?? '')
      reset.push(res.headers.get('ratelimit-reset') ?? '')
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0'])
    expect(reset).toEqual(['12', '24', '36', '48', '60']) // seconds until full: 12 s a token
    const limited = await call(emu(), '/maps/v1/resources?limit=1', { token })
    await expectError(limited, 429, 'rate_limited')
    expect(limited.headers.get('retry-after')).toBe('12')
    expect(limited.headers.get('ratelimit-remaining')).toBe('0')
    expect(emu().stats.rateLimited).toBe(1)

    // Buckets are per (app, service): another app and another service are untouched.
    const other = await call(emu(), '/maps/v1/resources?limit=1', { token: await emu().mintToken({ appId: 'app_b' }) })
    expect(other.status).toBe(200)
    expect(other.headers.get('ratelimit-remaining')).toBe('4')
    const realtime = await call(emu(), '/realtime/v1/resources?limit=1', { token })
    expect(realtime.headers.get('ratelimit-limit')).toBe('600')
    expect(realtime.headers.get('ratelimit-remaining')).toBe('599')
  })

  it('refused auth does not spend tokens but still shows the headers', async () => {
    emu().reset()
    for (let i = 0; i < 8; i++) await expectError(await call(emu(), '/maps/v1/resources'), 401, 'missing_token')
    const res = await call(emu(), '/maps/v1/resources', { token: await emu().mintToken() })
    expect(res.status).toBe(200)
    expect(res.headers.get('ratelimit-remaining')).toBe('4')
  })

  it('a plan of false disables the limit', async () => {
    emu().reset()
    const token = await emu().mintToken()
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call(emu(), '/support/v1/resources?limit=1', { token })),
    )
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200))
    expect(results[0]?.headers.get('ratelimit-limit')).toBeNull()
  })
})

describe('RateLimiter arithmetic (fake clock)', () => {
  const make = (limit: number, windowMs: number) => {
    let now = 1000
    const limiter = new RateLimiter({ maps: { limit, windowMs }, support: false, realtime: false }, () => now)
    return { limiter, advance: (ms: number) => (now += ms) }
  }

  it('refills continuously at limit per window and reports reset until full', () => {
    const { limiter, advance } = make(100, 60_000)
    for (let i = 0; i < 100; i++) expect(limiter.take('a', 'maps')?.allowed).toBe(true)
    const refused = limiter.take('a', 'maps')
    expect(refused?.allowed).toBe(false)
    expect(refused?.retryAfterSeconds).toBe(1) // one token per 600 ms
    expect(refused?.headers['RateLimit-Reset']).toBe('60')
    advance(600)
    const next = limiter.take('a', 'maps')
    expect(next?.allowed).toBe(true)
    expect(next?.headers['RateLimit-Remaining']).toBe('0')
    advance(60_000)
    expect(limiter.take('a', 'maps')?.headers).toEqual({
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': '99',
      'RateLimit-Reset': '1',
    })
  })

  it('Retry-After rounds up to whole seconds', () => {
    const { limiter } = make(1, 10_000)
    expect(limiter.take('a', 'maps')?.allowed).toBe(true)
    const refused = limiter.take('a', 'maps')
    expect(refused?.retryAfterSeconds).toBe(10)
    expect(refused?.headers['Retry-After']).toBe('10')
  })

  it('a client that waits for its own token is never refused, even arriving a hair early', () => {
    const { limiter, advance } = make(10, 1000)
    for (let i = 0; i < 10; i++) limiter.take('a', 'maps')
    for (let i = 0; i < 200; i++) {
      // The client's bucket started ~3 ms before ours: it sends 3 ms "early" every time.
      advance(i === 0 ? 97 : 100)
      expect(limiter.take('a', 'maps')?.allowed).toBe(true)
    }
    // …but it cannot go faster than the plan: an immediate extra request is refused.
    expect(limiter.take('a', 'maps')?.allowed).toBe(false)
  })

  it('peek never creates or spends', () => {
    const { limiter } = make(3, 1000)
    expect(limiter.peek('a', 'maps')?.headers['RateLimit-Remaining']).toBe('3')
    expect(limiter.peek(undefined, 'maps')?.headers['RateLimit-Remaining']).toBe('3')
    expect(limiter.take('a', 'maps')?.headers['RateLimit-Remaining']).toBe('2')
    expect(limiter.peek('a', 'maps')?.headers['RateLimit-Remaining']).toBe('2')
    expect(limiter.peek('a', 'support')).toBeUndefined()
  })
})
