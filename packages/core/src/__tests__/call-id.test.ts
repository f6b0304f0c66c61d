import { describe, expect, it } from 'vitest'
import type { RateLimitWaitEvent, RequestEvent, RetryEvent } from '../index.js'
import { setup } from './helpers.js'

// `callId`: one id per call on its `request`, `retry` and `rateLimitWait` events, so a tool shows
// a call's attempts, and why each was retried, as one row.

describe('callId', () => {
  it("is shared by every attempt and retry of a call, and counts the client's calls from 1", async () => {
    const { emu, client } = await setup()
    const requests: RequestEvent[] = []
    const retries: RetryEvent[] = []
    client.on('request', (e) => requests.push(e))
    client.on('retry', (e) => retries.push(e))

    await client.maps.resources.list({ limit: 1 })
    emu.faults.failNext(2, { status: 503 })
    await client.maps.resources.list({ limit: 1 })
    await client.support.resources.list({ limit: 1 })

    expect(requests.map((e) => [e.callId, e.attempt, e.status])).toEqual([
      [1, 0, 200],
      [2, 0, 503],
      [2, 1, 503],
      [2, 2, 200],
      [3, 0, 200],
    ])
    expect(retries.map((e) => [e.callId, e.attempt, e.status, e.reason])).toEqual([
      [2, 0, 503, expect.any(String)],
      [2, 1, 503, expect.any(String)],
    ])
  })

  it('a refused call takes no id; a network failure carries its call id', async () => {
    const { emu, client } = await setup({ client: { retry: false } })
    const requests: RequestEvent[] = []
    client.on('request', (e) => requests.push(e))
    // @ts-expect-error: an unknown method, refused before anything is sent
    await expect(client.request({ service: 'maps', method: 'TRACE', path: '/v1/resources' })).rejects.toThrow()
    emu.faults.dropNext(1, { when: 'before', service: 'maps' })
    await expect(client.maps.resources.list({ limit: 1 })).rejects.toMatchObject({ name: 'NetworkError' })
    expect(requests).toMatchObject([{ callId: 1, errorCode: 'network_error' }])
  })

  it('a rate-limit wait names the call that waited', async () => {
    const { client } = await setup({ client: { services: { maps: { rateLimit: { limit: 1, intervalMs: 300 } } } } })
    const requests: RequestEvent[] = []
    const waits: RateLimitWaitEvent[] = []
    client.on('request', (e) => requests.push(e))
    client.on('rateLimitWait', (e) => waits.push(e))
    await Promise.all([client.maps.resources.list({ limit: 1 }), client.maps.resources.list({ limit: 1 })])
    expect(waits).toHaveLength(1)
    // The call that waited is the one whose request went second.
    expect(waits[0]!.callId).toBe(requests[1]!.callId)
    expect(requests.map((e) => e.callId).sort()).toEqual([1, 2])
  })
})
