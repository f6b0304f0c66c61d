import { CUSTOMER_PLAN } from '@tandem/contract'
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
    const started = performance.now()
    for (let i = 0; i < 5; i++) {
      const res = await call(emu(), '/maps/v1/resources?limit=1', { token })
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe('5')
      remaining.push(res.headers.get('ratelimit-remaining') ?? '')
      reset.push(res.headers.get('ratelimit-reset') ?? '')
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0'])
    // Seconds until full, 12 s a token: 12, 24, 36, 48, 60 when the requests take no time; a busy
    // machine's slow requests refill part of a token meanwhile, which brings a reset that much closer.
    const late = Math.ceil((performance.now() - started) / 1000)
    reset.forEach((r, i) => {
      expect(Number(r)).toBeLessThanOrEqual(12 * (i + 1))
      expect(Number(r)).toBeGreaterThanOrEqual(12 * (i + 1) - late)
    })
    const limited = await call(emu(), '/maps/v1/resources?limit=1', { token })
    await expectError(limited, 429, 'rate_limited')
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBeLessThanOrEqual(12)
    expect(retryAfter).toBeGreaterThanOrEqual(12 - Math.ceil((performance.now() - started) / 1000))
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

const A = { app: 'a' }

describe('RateLimiter arithmetic (fake clock)', () => {
  const make = (limit: number, windowMs: number) => {
    let now = 1000
    const limiter = new RateLimiter({ maps: { limit, windowMs }, support: false, realtime: false }, () => now)
    return { limiter, advance: (ms: number) => (now += ms) }
  }

  it('refills continuously at limit per window and reports reset until full', () => {
    const { limiter, advance } = make(100, 60_000)
    for (let i = 0; i < 100; i++) expect(limiter.take(A, 'maps')?.allowed).toBe(true)
    const refused = limiter.take(A, 'maps')
    expect(refused?.allowed).toBe(false)
    expect(refused?.retryAfterSeconds).toBe(1) // one token per 600 ms
    expect(refused?.headers['RateLimit-Reset']).toBe('60')
    advance(600)
    const next = limiter.take(A, 'maps')
    expect(next?.allowed).toBe(true)
    expect(next?.headers['RateLimit-Remaining']).toBe('0')
    advance(60_000)
    expect(limiter.take(A, 'maps')?.headers).toEqual({
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': '99',
      'RateLimit-Reset': '1',
      'Tandem-RateLimit-Bucket': 'app',
    })
  })

  it('Retry-After rounds up to whole seconds', () => {
    const { limiter } = make(1, 10_000)
    expect(limiter.take(A, 'maps')?.allowed).toBe(true)
    const refused = limiter.take(A, 'maps')
    expect(refused?.retryAfterSeconds).toBe(10)
    expect(refused?.headers['Retry-After']).toBe('10')
  })

  it('a client that waits for its own token is never refused, even arriving a hair early', () => {
    const { limiter, advance } = make(10, 1000)
    for (let i = 0; i < 10; i++) limiter.take(A, 'maps')
    for (let i = 0; i < 200; i++) {
      // The client's bucket started ~3 ms before ours: it sends 3 ms "early" every time.
      advance(i === 0 ? 97 : 100)
      expect(limiter.take(A, 'maps')?.allowed).toBe(true)
    }
    // …but it cannot go faster than the plan: an immediate extra request is refused.
    expect(limiter.take(A, 'maps')?.allowed).toBe(false)
  })

  it('peek never creates or spends', () => {
    const { limiter } = make(3, 1000)
    expect(limiter.peek('a', 'maps')?.headers['RateLimit-Remaining']).toBe('3')
    expect(limiter.peek(undefined, 'maps')?.headers['RateLimit-Remaining']).toBe('3')
    expect(limiter.take(A, 'maps')?.headers['RateLimit-Remaining']).toBe('2')
    expect(limiter.peek('a', 'maps')?.headers['RateLimit-Remaining']).toBe('2')
    expect(limiter.peek('a', 'support')).toBeUndefined()
  })
})

describe('customer buckets (fake clock)', () => {
  const make = (app: number, customer: { limit: number; windowMs: number }, maxBuckets?: number) => {
    let now = 1000
    const limiter = new RateLimiter(
      { maps: false, support: { limit: app, windowMs: 60_000 }, realtime: false },
      () => now,
      { customerPlan: customer, ...(maxBuckets ? { maxBuckets } : {}) },
    )
    return { limiter, advance: (ms: number) => (now += ms) }
  }
  const ada = { app: 'a', customer: 'cus_ada' }
  const bob = { app: 'a', customer: 'cus_bob' }
  const remaining = (d: { headers: Record<string, string> } | undefined) => d?.headers['RateLimit-Remaining']

  it("a customer draws on its own bucket first; refused there, it spends nothing of the app's", () => {
    const { limiter } = make(100, { limit: 3, windowMs: 60_000 })
    for (const left of ['2', '1', '0']) {
      const d = limiter.take(ada, 'support')
      expect(d).toMatchObject({ allowed: true, bucket: 'customer' })
      expect(d?.headers).toMatchObject({ 'RateLimit-Limit': '3', 'Tandem-RateLimit-Bucket': 'customer' })
      expect(remaining(d)).toBe(left)
    }
    for (let i = 0; i < 10; i++) {
      const refused = limiter.take(ada, 'support')
      expect(refused).toMatchObject({ allowed: false, bucket: 'customer', retryAfterSeconds: 20 })
      expect(refused?.headers).toMatchObject({ 'RateLimit-Limit': '3', 'Retry-After': '20' })
    }
    // The app spent 3 (Ada's admitted requests), not 13; another customer and an agent are untouched.
    expect(remaining(limiter.peek('a', 'support'))).toBe('97')
    expect(limiter.take(bob, 'support')).toMatchObject({ allowed: true, bucket: 'customer' })
    const agent = limiter.take({ app: 'a' }, 'support')
    expect(agent).toMatchObject({ allowed: true, bucket: 'app' })
    expect(remaining(agent)).toBe('95')
  })

  it("the headers describe the bucket closer to empty; refused by the app's, the customer's is not spent", () => {
    const { limiter, advance } = make(5, { limit: 3, windowMs: 600_000 })
    expect(remaining(limiter.take(ada, 'support'))).toBe('2') // customer 2, app 4: the customer's
    for (let i = 0; i < 4; i++) limiter.take({ app: 'a' }, 'support')
    const refused = limiter.take(ada, 'support')
    expect(refused).toMatchObject({ allowed: false, bucket: 'app', retryAfterSeconds: 12 })
    expect(refused?.headers).toMatchObject({ 'RateLimit-Limit': '5', 'Tandem-RateLimit-Bucket': 'app' })
    advance(60_000) // the app's is full again; the customer's gained 0.3
    const next = limiter.take(ada, 'support')
    expect(next).toMatchObject({ allowed: true, bucket: 'customer' })
    expect(remaining(next)).toBe('1') // 2.3 - 1: the refused request took nothing from it
    // Once the app's is the lower, it is the one named (app 1 → 0, customer 1.3 → 0.3).
    for (let i = 0; i < 3; i++) limiter.take({ app: 'a' }, 'support')
    expect(limiter.take(ada, 'support')).toMatchObject({ allowed: true, bucket: 'app' })
  })

  it('full buckets are forgotten, and no more than maxBuckets are ever kept', () => {
    const { limiter, advance } = make(100_000, { limit: 60, windowMs: 60_000 })
    for (let i = 0; i < 1000; i++) limiter.take({ app: 'a', customer: `cus_${i}` }, 'support')
    expect(limiter.size).toBe(1001) // 1000 customers and the app, none full yet
    advance(60_000)
    limiter.take(ada, 'support')
    expect(limiter.size).toBe(2) // every full one is gone: Ada's and the app's are left
    expect(remaining(limiter.take({ app: 'a', customer: 'cus_7' }, 'support'))).toBe('59') // as new

    const capped = make(100_000, { limit: 60, windowMs: 60_000 }, 10)
    for (let i = 0; i < 1000; i++) {
      capped.limiter.take({ app: 'a', customer: `cus_${i}` }, 'support')
      expect(capped.limiter.size).toBeLessThanOrEqual(10)
    }
  })
})

describe('customer buckets over HTTP', () => {
  // Slow refills (a token per 5 min for the app, 4 min for a customer): no token comes back
  // mid-test, however slow a busy machine makes it (12 s per customer token once did).
  const small = useEmulator({
    plans: { support: { limit: 20, windowMs: 6_000_000 } },
    customerPlan: { limit: 5, windowMs: 1_200_000 },
  })
  const customerToken = (e: ReturnType<typeof small>, subject: string) =>
    e.mintToken({ subject, scope: ['support:customer'] })

  it("a customer's 6th request is its own 429 (header, details, Retry-After); agents and others are untouched", async () => {
    small().reset()
    const token = await customerToken(small(), 'cus_1')
    for (const left of ['4', '3', '2', '1', '0']) {
      const res = await call(small(), '/support/v1/me', { token })
      expect(res.status).toBe(200)
      expect(res.headers.get('tandem-ratelimit-bucket')).toBe('customer')
      expect(res.headers.get('ratelimit-limit')).toBe('5')
      expect(res.headers.get('ratelimit-remaining')).toBe(left)
    }
    const limited = await call(small(), '/support/v1/me', { token })
    const body = await expectError(limited, 429, 'rate_limited')
    expect(body.error.details?.[0]).toMatchObject({ bucket: 'customer' })
    expect(limited.headers.get('retry-after')).toBe('240')
    expect(limited.headers.get('tandem-ratelimit-bucket')).toBe('customer')
    expect(limited.headers.get('ratelimit-limit')).toBe('5')

    const agent = await call(small(), '/support/v1/mailboxes?limit=1', { token: await small().mintToken() })
    expect(agent.status).toBe(200)
    expect(agent.headers.get('tandem-ratelimit-bucket')).toBe('app')
    expect(agent.headers.get('ratelimit-remaining')).toBe('14') // 20 - 5 admitted - this one
    const other = await call(small(), '/support/v1/me', { token: await customerToken(small(), 'cus_2') })
    expect(other.status).toBe(200)
    expect(other.headers.get('ratelimit-remaining')).toBe('4')
  })

  it("an app's 429 says bucket app, and an injected one too", async () => {
    small().reset()
    const agentToken = await small().mintToken()
    for (let i = 0; i < 20; i++) await call(small(), '/support/v1/mailboxes?limit=1', { token: agentToken })
    const limited = await call(small(), '/support/v1/me', { token: await customerToken(small(), 'cus_3') })
    expect((await expectError(limited, 429, 'rate_limited')).error.details?.[0]).toMatchObject({ bucket: 'app' })
    expect(limited.headers.get('tandem-ratelimit-bucket')).toBe('app')
    small().reset()
    small().faults.rateLimitNext(1)
    const injected = await call(small(), '/support/v1/mailboxes', { token: agentToken })
    expect((await expectError(injected, 429, 'rate_limited')).error.details?.[0]).toMatchObject({ bucket: 'app' })
  })

  it("by default a customer's own plan is the contract's CUSTOMER_PLAN", async () => {
    emu().reset()
    // This emulator's support plan is off: the customer's own bucket is all that limits it.
    const token = await emu().mintToken({ subject: 'cus_1', scope: ['support:customer'] })
    const res = await call(emu(), '/support/v1/me', { token })
    expect(res.headers.get('ratelimit-limit')).toBe(String(CUSTOMER_PLAN.limit))
    expect(res.headers.get('tandem-ratelimit-bucket')).toBe('customer')
  })
})
