import { beforeEach, describe, expect, it } from 'vitest'
import { Faults } from '../faults.js'
import type { Resource } from '../types.js'
import { authed, call, expectError, useEmulator } from './helpers.js'
import { slack, within } from '../../../../test/utils/wait.js'

const HOUR = 3_600_000

const emu = useEmulator({ plans: { maps: false, support: false, realtime: false } })

beforeEach(() => emu().reset())

describe('faults', () => {
  it('failNext: the next n matching requests fail, then it recovers', async () => {
    emu().faults.failNext(2, { retryAfterSeconds: 3 })
    const first = await authed(emu(), '/maps/v1/resources')
    await expectError(first, 503, 'service_unavailable')
    expect(first.headers.get('retry-after')).toBe('3')
    await expectError(await authed(emu(), '/support/v1/resources'), 503, 'service_unavailable')
    expect((await authed(emu(), '/maps/v1/resources')).status).toBe(200)
  })

  it('failNext with a service filter and a custom status/code', async () => {
    emu().faults.failNext(1, { service: 'support', status: 500, code: 'boom' })
    expect((await authed(emu(), '/maps/v1/resources')).status).toBe(200)
    await expectError(await authed(emu(), '/support/v1/resources'), 500, 'boom')
    expect((await authed(emu(), '/support/v1/resources')).status).toBe(200)
  })

  it('rateLimitNext: forced 429 with Retry-After', async () => {
    emu().faults.rateLimitNext(1, { retryAfterSeconds: 2 })
    const res = await authed(emu(), '/realtime/v1/resources')
    await expectError(res, 429, 'rate_limited')
    expect(res.headers.get('retry-after')).toBe('2')
    expect(emu().stats.rateLimited).toBe(1)
    expect((await authed(emu(), '/realtime/v1/resources')).status).toBe(200)
  })

  it("dropNext 'before': the socket dies and nothing is applied", async () => {
    emu().faults.dropNext(1)
    await expect(authed(emu(), '/support/v1/resources', { method: 'POST', json: { name: 'lost' } })).rejects.toThrow()
    expect(emu().stats.writesApplied).toBe(0)
    expect(emu().log.at(-1)?.status).toBe(0)
  })

  it("dropNext 'after': the write is applied, the response lost; an idempotent retry replays it once", async () => {
    const token = await emu().mintToken()
    const send = () =>
      call(emu(), '/support/v1/resources', {
        token,
        method: 'POST',
        json: { name: 'exactly once' },
        headers: { 'Idempotency-Key': 'drop-1' },
      })
    emu().faults.dropNext(1, { when: 'after' })
    await expect(send()).rejects.toThrow()
    expect(emu().stats.writesApplied).toBe(1)
    const retry = await send()
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    const created = (await retry.json()) as Resource
    expect(emu().stats.writesApplied).toBe(1)
    expect((await authed(emu(), `/support/v1/resources/${created.id}`)).status).toBe(200)
  })

  it('respondNext: raw bodies (HTML, truncated JSON, empty)', async () => {
    emu()
      .faults.respondNext(1, { status: 502, body: '<html>Bad gateway</html>', contentType: 'text/html' })
      .respondNext(1, { status: 200, body: '{"data": [' })
      .respondNext(1, { status: 200, body: '' })
    const html = await authed(emu(), '/maps/v1/resources')
    expect(html.status).toBe(502)
    expect(html.headers.get('content-type')).toBe('text/html')
    expect(await html.text()).toBe('<html>Bad gateway</html>')
    expect(html.headers.get('x-request-id')).toMatch(/^req_/)
    const truncated = await authed(emu(), '/maps/v1/resources')
    expect(await truncated.text()).toBe('{"data": [')
    const empty = await authed(emu(), '/maps/v1/resources')
    expect(await empty.text()).toBe('')
    expect((await authed(emu(), '/maps/v1/resources')).status).toBe(200)
  })

  it('latency delays responses; clear() removes it', async () => {
    emu().faults.latency(500, { service: 'maps' })
    const t0 = performance.now()
    expect((await authed(emu(), '/maps/v1/resources?limit=1')).status).toBe(200)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(490) // a lower bound the emulator enforces
    // Not delayed: against a latency of an hour, an answer at all says so (no stopwatch to outrun).
    emu().faults.latency(HOUR, { service: 'maps' })
    const other = await within(authed(emu(), '/support/v1/resources?limit=1'), slack(5_000), 'support, not delayed')
    expect(other.status).toBe(200)
    emu().faults.clear()
    const cleared = await within(authed(emu(), '/maps/v1/resources?limit=1'), slack(5_000), 'maps after clear()')
    expect(cleared.status).toBe(200)
  })

  it('errorRate is deterministic for a seed', async () => {
    const run = async () => {
      emu().reset()
      emu().faults.errorRate(0.5, { status: 502 })
      const statuses: number[] = []
      for (let i = 0; i < 20; i++) statuses.push((await authed(emu(), '/maps/v1/resources?limit=1')).status)
      return statuses
    }
    const a = await run()
    expect(a).toContain(502)
    expect(a).toContain(200)
    expect(await run()).toEqual(a)
  })

  it('tokenEndpoint: 503 for a while, then recovers', async () => {
    emu().faults.tokenEndpoint({ status: 503, count: 2 })
    await expectError(await call(emu(), '/dev/token', { method: 'POST' }), 503, 'service_unavailable')
    await expectError(await call(emu(), '/dev/token', { method: 'POST' }), 503, 'service_unavailable')
    const ok = await call(emu(), '/dev/token', { method: 'POST' })
    expect(ok.status).toBe(200)
    expect(emu().stats.tokenRequests).toBe(3)
    emu().faults.tokenEndpoint({ status: 403 })
    for (let i = 0; i < 3; i++) await expectError(await call(emu(), '/dev/token'), 403, 'forbidden')
    emu().faults.clear()
    expect((await call(emu(), '/dev/token')).status).toBe(200)
  })

  it('rejects nonsense arguments loudly', () => {
    const f = new Faults()
    expect(() => f.failNext(-1)).toThrow(RangeError)
    expect(() => f.failNext(1, { status: 42 })).toThrow(RangeError)
    expect(() => f.errorRate(2)).toThrow(RangeError)
    expect(() => f.latency(-5)).toThrow(RangeError)
  })
})
