import { describe, expect, it, vi } from 'vitest'
import { createClient, isApiError, isNetworkError, type RateLimitWaitEvent, type RetryEvent } from '../index.js'
import { setup } from './helpers.js'
import { slack, within } from '../../../../test/utils/wait.js'

describe('HTTP pipeline against the emulator', () => {
  it('waits out a 429 with Retry-After: 1, then succeeds', async () => {
    const { emu, client } = await setup()
    emu.faults.rateLimitNext(1, { retryAfterSeconds: 1 })
    const retries: RetryEvent[] = []
    client.on('retry', (e) => retries.push(e))
    const started = performance.now()
    const page = await client.maps.resources.list({ limit: 1 })
    expect(page.data).toHaveLength(1)
    expect(performance.now() - started).toBeGreaterThanOrEqual(995)
    expect(retries).toMatchObject([{ status: 429, delayMs: 1000, reason: 'rate_limited' }])
  })

  it('a Retry-After beyond the cap fails at once with RateLimitError', async () => {
    const { emu, client } = await setup({ client: { retry: { maxRetryAfterMs: 5_000 } } })
    emu.faults.rateLimitNext(1, { retryAfterSeconds: 120 })
    await expect(client.maps.resources.list()).rejects.toMatchObject({
      name: 'RateLimitError',
      status: 429,
      retryAfterMs: 120_000,
    })
  })

  it('300 map requests in a burst at the plan limit: every one succeeds, the service sends no 429', async () => {
    // The free tier's 100/min, with the minute shortened to one second so the test runs in seconds.
    const plan = { limit: 100, intervalMs: 1_000 }
    const { emu, client } = await setup({
      emulator: { plans: { maps: { limit: 100, windowMs: 1_000 } } },
      client: { services: { maps: { rateLimit: plan } } },
    })
    const waits: RateLimitWaitEvent[] = []
    client.on('rateLimitWait', (e) => waits.push(e))
    const results = await Promise.allSettled(
      Array.from({ length: 300 }, () => client.maps.resources.list({ limit: 1 }).then((p) => p)),
    )
    expect(results.filter((r) => r.status === 'rejected')).toEqual([])
    expect(emu.stats.rateLimited).toBe(0)
    expect(emu.stats.byService.maps).toBe(300)
    expect(waits.length).toBeGreaterThanOrEqual(199) // everything past the first 100 was queued, not refused
  })

  it('retries a dropped write with the same idempotency key, and it is applied once', async () => {
    const { emu, client } = await setup()
    emu.faults.dropNext(1, { when: 'after', service: 'support' })
    const created = await client.support.resources.create({ name: 'Applied once' })
    expect(created).toMatchObject({ name: 'Applied once' })
    expect(emu.stats.writesApplied).toBe(1)
    const names: string[] = []
    for await (const r of client.support.resources.list({ limit: 100 })) names.push(r.name)
    expect(names.filter((n) => n === 'Applied once')).toHaveLength(1)
  })

  it('retries 503s for reads and succeeds; does not retry a 400', async () => {
    const { emu, client } = await setup()
    await client.maps.resources.list({ limit: 1 })
    emu.faults.failNext(2, { status: 503 })
    const before = emu.stats.byService.maps
    await client.maps.resources.list({ limit: 1 })
    expect(emu.stats.byService.maps - before).toBe(3)
    emu.faults.failNext(1, { status: 400, code: 'bad_thing' })
    await expect(client.maps.resources.list({ limit: 1 })).rejects.toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'bad_thing',
    })
    expect(emu.stats.byService.maps - before).toBe(4)
  })

  it('does not retry a write when idempotency keys are turned off', async () => {
    const { emu, client } = await setup({ client: { idempotency: false } })
    await client.support.resources.list({ limit: 1 })
    emu.faults.failNext(1, { status: 503, service: 'support' })
    await expect(client.support.resources.create({ name: 'x' })).rejects.toMatchObject({ status: 503 })
    expect(emu.stats.writesApplied).toBe(0)
  })

  it('a caller abort gives AbortError; a timeout gives TimeoutError', async () => {
    const { emu, client } = await setup()
    await client.maps.resources.list({ limit: 1 })
    emu.faults.latency(5_000)
    const controller = new AbortController()
    const before = emu.stats.requests
    const pending = client.maps.resources.list({}, { signal: controller.signal }).then((p) => p)
    await vi.waitFor(() => expect(emu.stats.requests).toBe(before + 1)) // in flight at the emulator
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', code: 'aborted' })
    await expect(client.maps.resources.list({}, { timeoutMs: 100 })).rejects.toMatchObject({
      name: 'TimeoutError',
      code: 'timeout',
    })
    emu.faults.clear()
  })

  it.each([
    ['HTML with 200', 200, '<html><body>Oops</body></html>', 'text/html', 'bad_response'],
    ['truncated JSON', 200, '{"data":[{"id":', 'application/json', 'bad_response'],
    ['an empty 200', 200, '', 'application/json', 'bad_response'],
    ['HTML 500 page', 500, '<html>Internal</html>', 'text/html', 'http_500'],
    ['a wrong shape', 200, '{"items":[]}', 'application/json', 'bad_response'],
  ])('%s becomes an ApiError, not a crash', async (_name, status, body, contentType, code) => {
    const { emu, client } = await setup({ client: { retry: false } })
    emu.faults.respondNext(1, { status, body, contentType })
    const error = await client.support.resources.list().then(
      () => null,
      (e: unknown) => e,
    )
    expect(isApiError(error)).toBe(true)
    expect(error).toMatchObject({ code, status })
    // And the client still works afterwards.
    expect((await client.support.resources.list({ limit: 1 })).data).toHaveLength(1)
  })

  it('every error from a response carries the X-Request-Id', async () => {
    const { emu, client } = await setup()
    emu.faults.failNext(1, { status: 404, code: 'not_found' })
    const error = await client.support.resources.get('res_x').then(
      () => ({ requestId: 'resolved' }),
      (e: { requestId?: string }) => e,
    )
    expect(error.requestId).toMatch(/^(?!resolved$)\S+/)
    expect(emu.log.some((line: { requestId: string }) => line.requestId === error.requestId)).toBe(true)
  })

  it('a refused connection is a NetworkError after bounded retries', async () => {
    const { emu } = await setup()
    const url = emu.url
    await emu.close()
    const client = createClient({
      baseUrl: url,
      retry: { limit: 2, baseDelayMs: 1, maxDelayMs: 2 },
      auth: { fetchToken: async () => ({ token: 'unused', expiresIn: 600 }) },
    })
    const retries: RetryEvent[] = []
    client.on('retry', (e) => retries.push(e))
    const error = await client.maps.resources.list().then(
      () => null,
      (e: unknown) => e,
    )
    expect(isNetworkError(error)).toBe(true)
    expect(retries).toHaveLength(2)
  })
})

describe('HTTP pipeline edge cases', () => {
  it('a slow token endpoint does not turn queued slots into a burst the service refuses', async () => {
    const plan = { limit: 100, intervalMs: 1_000 }
    const { emu, client } = await setup({
      emulator: { plans: { maps: { limit: 100, windowMs: 1_000 } } },
      client: (e) => ({
        services: { maps: { rateLimit: plan } },
        auth: {
          fetchToken: async () => {
            await new Promise((r) => setTimeout(r, 600)) // a slow backend
            const res = await fetch(`${e.url}/dev/token`, { method: 'POST' })
            return (await res.json()) as { token: string; expiresIn: number }
          },
        },
      }),
    })
    const results = await Promise.allSettled(
      Array.from({ length: 250 }, () => client.maps.resources.list({ limit: 1 })),
    )
    expect(results.filter((r) => r.status === 'rejected')).toEqual([])
    expect(emu.stats.rateLimited).toBe(0)
  })

  it('Retry-After: 0 retries at once', async () => {
    const { emu, client } = await setup()
    emu.faults.rateLimitNext(1, { retryAfterSeconds: 0 })
    expect((await client.maps.resources.list({ limit: 1 })).data).toHaveLength(1)
  })

  it('a bogus huge Retry-After fails that call and holds the service no longer than maxRetryAfterMs', async () => {
    const { emu, client } = await setup({ client: { retry: { maxRetryAfterMs: 300 } } })
    emu.faults.rateLimitNext(1, { retryAfterSeconds: 3_000_000 })
    await expect(client.maps.resources.list()).rejects.toMatchObject({
      name: 'RateLimitError',
      retryAfterMs: 3_000_000_000,
    })
    // Held for the bogus 3,000,000 s, the next call would wait out any deadline; held 300 ms, it comes.
    const next = await within(client.maps.resources.list({ limit: 1 }), slack(4_000), 'the call after maxRetryAfterMs')
    expect(next.data).toHaveLength(1)
  })

  it('an abort while queued behind the rate limit leaves the queue and sends nothing', async () => {
    const { emu, client } = await setup({
      client: { services: { maps: { rateLimit: { limit: 1, intervalMs: 60_000 } } } },
    })
    await client.maps.resources.list({ limit: 1 })
    const before = emu.stats.byService.maps
    const controller = new AbortController()
    const queued = client.maps.resources.list({ limit: 1 }, { signal: controller.signal })
    // The token is cached, so only microtasks stand between the call and the queue: one macrotask turn flushes them.
    await new Promise((r) => setImmediate(r))
    controller.abort() // the next slot is a minute away: without abort support in the queue this would time out
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' })
    expect(emu.stats.byService.maps).toBe(before)
  })

  it('an abort while waiting for a token rejects that call only', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', auth: { fetchToken: () => new Promise(() => {}) } })
    const controller = new AbortController()
    const pending = client.maps.resources.list({}, { signal: controller.signal })
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('a fetch that ignores its signal still times out', async () => {
    const client = createClient({
      baseUrl: 'http://127.0.0.1:9',
      retry: false,
      timeoutMs: 50,
      fetch: () => new Promise<Response>(() => {}),
      auth: { fetchToken: async () => ({ token: 't', expiresIn: 600 }) },
    })
    await expect(client.maps.resources.list()).rejects.toMatchObject({ name: 'TimeoutError' })
  })

  it('a throwing request listener breaks nothing: the write resolves and is applied once', async () => {
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    try {
      const { emu, client } = await setup()
      client.on('request', () => {
        throw new Error('listener bug')
      })
      await expect(client.support.resources.create({ name: 'once' })).resolves.toMatchObject({ name: 'once' })
      expect(emu.stats.writesApplied).toBe(1)
      expect(reported.length).toBeGreaterThan(0)
      expect(reported[0]).toMatchObject({ message: 'listener bug' })
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it("a caller's own Idempotency-Key header is the key (any case), so a repeat is replayed", async () => {
    const { emu, client } = await setup()
    const send = () =>
      client.request<{ id: string }>({
        service: 'support',
        method: 'POST',
        path: '/v1/resources',
        body: { name: 'keyed' },
        headers: { 'Idempotency-Key': 'order-42' },
      })
    const [a, b] = [await send(), await send()]
    expect(a.id).toBe(b.id)
    expect(emu.stats.writesApplied).toBe(1)
  })

  it.each([
    ['an unknown method', { method: 'TRACE' }, 'method'],
    ['a path without a slash', { path: 'v1/resources' }, 'path'],
    ['a header with a newline', { headers: { 'x-a': 'b\r\nc' } }, 'headers'],
  ])('client.request refuses %s locally', async (_n, patch, field) => {
    const { emu, client } = await setup()
    const before = emu.stats.requests
    const req = { service: 'maps', method: 'GET', path: '/v1/resources', ...patch } as Parameters<
      typeof client.request
    >[0]
    await expect(client.request(req)).rejects.toMatchObject({ name: 'ValidationError', field })
    expect(emu.stats.requests).toBe(before)
  })
})
