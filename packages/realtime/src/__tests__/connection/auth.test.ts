import { until } from '../../../../../test/utils/wait.js'
import { describe, expect, it } from 'vitest'
import type { RealtimeError } from '@tandem/core'
import type { StateChange } from '../../types.js'
import { client, collect, untilState, untilSubscribed, useEmulator } from '../helpers.js'

const emu = useEmulator()

describe('tokens', () => {
  it('never puts the token in the URL; sends it in the connect frame', async () => {
    const urls: string[] = []
    emu().server.on('upgrade', (req) => urls.push(req.url ?? ''))
    const a = client(emu())
    a.connect()
    await untilState(a, 'connected')
    expect(urls.at(-1)).toBe('/realtime/v1/ws')
  })

  it('refreshes in-band before expiry: same socket, channels stay subscribed, messages keep flowing', async () => {
    // The client is told its tokens live 2 s (the emulator mints 60 s ones): it re-auths every ~1 s.
    const a = client(emu(), { subject: 'short', expiresIn: 2 })
    const got = collect(a, 'auth:live')
    await untilSubscribed(a.channel('auth:live'))
    const stats = emu().realtime.stats
    const authsBefore = stats.framesIn.auth ?? 0
    const subscribes = stats.framesIn.subscribe ?? 0
    const connections = stats.connections.total
    await emu().realtime.waitFor(() => (stats.framesOut.authed ?? 0) >= authsBefore + 2, { timeoutMs: 5_000 })
    expect(a.stats.tokens).toBeGreaterThanOrEqual(3)
    expect(stats.framesIn.subscribe ?? 0).toBe(subscribes)
    expect(stats.connections.total).toBe(connections)
    expect(a.channel('auth:live').state).toBe('subscribed')
    await a.channel('auth:live').publish('n', 1)
    await got.count(1)
  })

  it('token endpoint down → backoff with bounded attempts, recovery once it is back', async () => {
    let down = true
    let calls = 0
    const errors: RealtimeError[] = []
    const states: StateChange[] = []
    const a = client(emu(), {
      fetchToken: async () => {
        calls++
        if (down) throw Object.assign(new Error('unavailable'), { status: 503 })
        return { token: await emu().mintToken({ subject: 'back' }), expiresIn: 600 }
      },
    })
    a.on('error', (e) => errors.push(e))
    a.on('state', (s) => states.push(s))
    a.connect()
    await until(
      (cb) => a.on('state', cb),
      () => states.filter((s) => s.reason === 'token_unavailable').length >= 3,
    )
    expect(a.state).toBe('reconnecting')
    expect(states.every((s) => s.current !== 'reconnecting' || typeof s.retryInMs === 'number')).toBe(true)
    expect(errors[0]).toMatchObject({ name: 'RealtimeError', code: 'token_endpoint_unavailable', temporary: true })
    // Core's provider tries 3 times, then cools down (fails fast): our retries do not hammer the endpoint.
    expect(calls).toBeLessThanOrEqual(6)
    down = false
    await untilState(a, 'connected', 10_000)
    expect(emu().realtime.stats.connections.total).toBeGreaterThan(0)
  })

  it('a token endpoint that refuses (401) is final: failed, no loop', async () => {
    let calls = 0
    const a = client(emu(), {
      fetchToken: async () => {
        calls++
        throw Object.assign(new Error('no'), { status: 401 })
      },
    })
    const failed = until(
      (cb) => a.on('state', cb),
      () => a.state === 'failed',
    )
    a.connect()
    await failed
    expect(calls).toBe(1)
  })

  it('revoked (4102): fresh token, reconnect, channels resume', async () => {
    const a = client(emu(), { subject: 'revoked' })
    const got = collect(a, 'auth:revoke')
    await untilSubscribed(a.channel('auth:revoke'))
    const tokens = a.stats.tokens
    const states: StateChange[] = []
    a.on('state', (s) => states.push(s))
    emu().realtime.revoke('revoked')
    await until(
      (cb) => a.on('state', cb),
      () => states.some((s) => s.current === 'connected'),
    )
    expect(states[0]).toMatchObject({ current: 'reconnecting', reason: 'token_revoked' })
    expect(a.stats.tokens).toBe(tokens + 1)
    await untilSubscribed(a.channel('auth:revoke'))
    await a.channel('auth:revoke').publish('n', 1)
    await got.count(1)
  })

  // Regression: 4100 reconnected at once, even when the token was refused as expired at the
  // handshake; a backend whose tokens are all expired (a clock off) then got hundreds of
  // connections and token requests a second.
  it('expired at the handshake (4100) again and again: backs off instead of reconnecting in a tight loop', async () => {
    const token = await emu().mintToken({ subject: 'stale', scope: ['realtime'], now: Date.now() - 700_000 })
    const a = client(
      emu(),
      { fetchToken: async () => ({ token, expiresIn: 600 }) },
      { backoff: { baseMs: 50, capMs: 400 } },
    )
    const before = emu().realtime.stats.connections.total
    a.connect()
    await until(
      (cb) => a.on('state', cb),
      () => a.stats.tokens >= 2,
    )
    await new Promise((resolve) => setTimeout(resolve, 1_000)) // attempts are counted over this second
    expect(emu().realtime.stats.connections.total - before).toBeLessThanOrEqual(15)
    a.close()
  })

  it('fatal close (4003) → failed, no reconnect', async () => {
    const a = client(emu(), { subject: 'fatal' })
    a.connect()
    await untilState(a, 'connected')
    const total = emu().realtime.stats.connections.total
    const failed = until(
      (cb) => a.on('state', cb),
      () => a.state === 'failed',
    )
    emu().realtime.dropConnections({ subject: 'fatal', code: 4003 })
    await failed
    await expect(
      emu().realtime.waitFor((e) => e?.type === 'open' && e.subject === 'fatal', { timeoutMs: 300 }),
    ).rejects.toThrow(/within/)
    expect(emu().realtime.stats.connections.total).toBe(total)
    await expect(a.channel('x:y').publish('n', 1)).rejects.toMatchObject({
      code: 'forbidden',
      message: 'Client failed: Service closed: forbidden',
    })
  })
})
