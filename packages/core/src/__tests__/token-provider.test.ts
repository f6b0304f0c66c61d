import { describe, expect, it, vi } from 'vitest'
import { createTokenProvider, isAuthError, isAbortError, type TokenResponse } from '../index.js'
import { memoryLogger, setup } from './helpers.js'

describe('token provider against the emulator', () => {
  it('100 concurrent cold requests cause exactly 1 token fetch', async () => {
    const { emu, client } = await setup()
    const results = await Promise.all(Array.from({ length: 100 }, () => client.support.resources.list({ limit: 1 })))
    expect(results).toHaveLength(100)
    expect(results.every((page) => page.data.length === 1)).toBe(true)
    expect(emu.stats.tokenRequests).toBe(1)
  })

  it('a token expiring during a burst fails no request: one refresh, every request answered', async () => {
    const { emu, client } = await setup()
    // Fake only the clock (sockets stay real); the emulator shares it, so the token really expires for it too.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      await client.support.resources.list({ limit: 1 })
      // Hold the first wave at the emulator (latency is applied before it checks the token)...
      emu.faults.latency(1_000, { service: 'support', count: 40 })
      const before = emu.stats.byService.support
      const first = Array.from({ length: 40 }, () => client.support.resources.list({ limit: 1 }).then((p) => p))
      await vi.waitFor(() => expect(emu.stats.byService.support - before).toBe(40))
      // ...then let the token expire while they are in flight (past its 600 s and the emulator's 5 s
      // clock tolerance), and send a second wave.
      vi.setSystemTime(Date.now() + 660_000)
      const second = Array.from({ length: 40 }, () => client.support.resources.list({ limit: 1 }).then((p) => p))
      const settled = await Promise.allSettled([...first, ...second])
      expect(settled.filter((s) => s.status === 'rejected')).toEqual([])
      expect(emu.stats.tokenRequests).toBe(2)
      // The held wave really met the expiry: the emulator refused it, and the client replayed it.
      expect(emu.log.filter((line) => line.status === 401).length).toBeGreaterThan(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('a 401 causes one refresh and one replay', async () => {
    const { emu, client } = await setup()
    await client.maps.resources.list({ limit: 1 })
    emu.faults.failNext(1, { status: 401, code: 'token_expired' })
    const before = emu.stats.requests
    const page = await client.maps.resources.list({ limit: 2 })
    expect(page.data).toHaveLength(2)
    expect(emu.stats.tokenRequests).toBe(2)
    expect(emu.stats.requests - before).toBe(3) // the 401, the token fetch, the replay
  })

  it('does not loop when the token endpoint answers 403 after a 401', async () => {
    const { emu, client } = await setup()
    await client.maps.resources.list({ limit: 1 })
    emu.faults.failNext(1, { status: 401, code: 'token_expired' })
    emu.faults.tokenEndpoint({ status: 403 })
    const error = await client.maps.resources.list({ limit: 1 }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(isAuthError(error)).toBe(true)
    expect(error).toMatchObject({ code: 'token_refused', status: 403 })
    expect(emu.stats.tokenRequests).toBe(2) // the first token, then exactly one refused refresh
    // Called again at once: the refusal is remembered for a cool-down, nothing is sent.
    await expect(client.maps.resources.list({ limit: 1 })).rejects.toMatchObject({ code: 'token_refused' })
    expect(emu.stats.tokenRequests).toBe(2)
  })

  it('a 401 answered with a still-current refreshed token replays only once, then fails typed', async () => {
    const { emu, client } = await setup()
    emu.faults.failNext(2, { status: 401, code: 'invalid_signature' })
    const error = await client.maps.resources.list().then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ name: 'AuthError', status: 401, code: 'invalid_signature' })
    expect(emu.stats.tokenRequests).toBe(2)
  })

  it('tokens never appear in logs or error messages', async () => {
    const { lines, logger } = memoryLogger()
    const { emu, client } = await setup({ client: { logger, logLevel: 'debug' } })
    const tokens: string[] = []
    client.auth.on('token', ({ token }) => tokens.push(token))
    await client.support.resources.list({ limit: 3 })
    emu.faults.failNext(3, { status: 401, code: 'token_expired' })
    const error = await client.support.resources.get('nope').catch((e: Error) => e)
    const notFound = await client.support.resources.get('res_missing').catch((e: Error) => e)
    expect(tokens.length).toBeGreaterThan(0)
    expect(lines.length).toBeGreaterThan(3)
    const everything = [
      ...lines,
      String(error),
      JSON.stringify(error),
      String(notFound),
      (notFound as Error).stack ?? '',
    ]
    for (const token of tokens) for (const text of everything) expect(text).not.toContain(token)
  })
})

describe('token provider (unit, controlled clock)', () => {
  function counting(response: () => TokenResponse | Promise<TokenResponse>) {
    let calls = 0
    const fetchToken = async () => {
      calls++
      return response()
    }
    return { fetchToken, calls: () => calls }
  }

  it('refreshes ahead of expiry in the background, keeping the valid token in use', async () => {
    let now = 1_000_000
    let n = 0
    const src = counting(() => ({ token: `t${++n}`, expiresIn: 600 }))
    const provider = createTokenProvider({ fetchToken: src.fetchToken }, { now: () => now })
    const seen: string[] = []
    provider.on('token', ({ token }) => seen.push(token))
    expect(await provider.getToken()).toBe('t1')
    now += 539_000 // margin is max(30 s, 10 % of 600 s) = 60 s: not yet
    expect(await provider.getToken()).toBe('t1')
    expect(src.calls()).toBe(1)
    now += 2_000 // inside the margin: the valid token is returned and a refresh starts
    expect(await provider.getToken()).toBe('t1')
    await vi.waitFor(() => expect(seen).toEqual(['t1', 't2']))
    expect(await provider.getToken()).toBe('t2')
    expect(src.calls()).toBe(2)
  })

  it('computes expiry from local receipt time, so a skewed server clock does not matter', async () => {
    let now = 5_000
    const provider = createTokenProvider(
      { fetchToken: async () => ({ token: 'a', expiresIn: 120 }) },
      { now: () => now },
    )
    await provider.getToken()
    expect(provider.expiresAt()).toBe(5_000 + 120_000)
    now += 119_000
    expect(await provider.getToken()).toBe('a')
  })

  it('backs off on temporary failures, gives up after a bounded number of attempts, cools down, then recovers', async () => {
    let now = 0
    let failing = true
    const src = counting(() => {
      if (failing) throw Object.assign(new Error('boom'), { status: 503 })
      return { token: 'ok', expiresIn: 600 }
    })
    const provider = createTokenProvider({ fetchToken: src.fetchToken }, { now: () => now, random: () => 0 })
    const errors: string[] = []
    provider.on('error', (e) => errors.push(e.code))
    await expect(provider.getToken()).rejects.toMatchObject({
      name: 'AuthError',
      code: 'token_endpoint_unavailable',
      status: 503,
    })
    expect(src.calls()).toBe(3)
    // During the cool-down nothing is fetched, however often the app asks.
    for (let i = 0; i < 50; i++)
      await expect(provider.getToken()).rejects.toMatchObject({ code: 'token_endpoint_unavailable' })
    expect(src.calls()).toBe(3)
    // The cool-down is never near zero: at least half its step (1 s), even with a random of 0.
    now += 499
    await expect(provider.getToken()).rejects.toMatchObject({ code: 'token_endpoint_unavailable' })
    expect(src.calls()).toBe(3)
    failing = false
    now += 501
    expect(await provider.getToken()).toBe('ok')
    expect(src.calls()).toBe(4)
    expect(errors).toEqual(['token_endpoint_unavailable'])
  })

  it('a token source that ignores its signal cannot hang the flight: it times out and is retried', async () => {
    vi.useFakeTimers()
    try {
      let calls = 0
      const provider = createTokenProvider(
        {
          fetchToken: () => {
            calls++
            return new Promise<TokenResponse>(() => {})
          },
        },
        { random: () => 0 },
      )
      const pending = provider.getToken().catch((e: unknown) => e)
      await vi.advanceTimersByTimeAsync(3 * 10_000 + 100)
      expect(await pending).toMatchObject({ name: 'AuthError', code: 'token_endpoint_unavailable' })
      expect(calls).toBe(3)
    } finally {
      vi.useRealTimers()
    }
  })

  it("a throwing 'token' listener does not break the refresh", async () => {
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
    try {
      const provider = createTokenProvider({ fetchToken: async () => ({ token: 'fine', expiresIn: 600 }) })
      provider.on('token', () => {
        throw new Error('listener bug')
      })
      expect(await provider.getToken()).toBe('fine')
      expect(reported).toMatchObject([{ message: 'listener bug' }]) // where the app's error handler sees it
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('rejects a malformed token response as a final AuthError', async () => {
    const src = counting(() => ({ token: '', expiresIn: 10 }) as TokenResponse)
    const provider = createTokenProvider({ fetchToken: src.fetchToken })
    await expect(provider.getToken()).rejects.toMatchObject({ code: 'invalid_token_response' })
    expect(src.calls()).toBe(1)
  })

  it('a GET token endpoint gets no body', async () => {
    const { emu } = await setup()
    const provider = createTokenProvider({ url: `${emu.url}/dev/token`, init: { method: 'GET' } })
    expect(await provider.getToken()).toMatch(/^eyJ/)
  })

  it("one caller's abort does not cancel the shared fetch for the others", async () => {
    let release!: (r: TokenResponse) => void
    const src = counting(
      () =>
        new Promise<TokenResponse>((r) => {
          release = r
        }),
    )
    const provider = createTokenProvider({ fetchToken: src.fetchToken })
    const controller = new AbortController()
    const aborted = provider.getToken({ signal: controller.signal })
    const other = provider.getToken()
    controller.abort()
    expect(isAbortError(await aborted.catch((e: unknown) => e))).toBe(true)
    release({ token: 'shared', expiresIn: 600 })
    expect(await other).toBe('shared')
    expect(src.calls()).toBe(1)
  })

  it('invalidate(token) ignores a token that is no longer current', async () => {
    let n = 0
    const provider = createTokenProvider({ fetchToken: async () => ({ token: `t${++n}`, expiresIn: 600 }) })
    const old = await provider.getToken()
    provider.invalidate(old)
    const fresh = await provider.getToken()
    provider.invalidate(old) // a late 401 for the old token
    expect(await provider.getToken()).toBe(fresh)
    expect(n).toBe(2)
  })
})
