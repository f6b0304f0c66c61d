import { describe, expect, it, vi } from 'vitest'
import { createWebhookHandler, type WebhookReplayStore } from '../index.js'
import { createMemoryReplayStore } from '../replay-store.js'
import { event, expectError, OLD, SECRET, signed, URL_ } from './webhook-fixtures.js'
import { waitUntil } from '../../../../test/utils/wait.js'

describe('createWebhookHandler', () => {
  it('verifies, parses and dispatches a valid delivery once, answering 200 { received: true }', async () => {
    const onCreated = vi.fn()
    const onUpdated = vi.fn()
    const handler = createWebhookHandler({
      secret: SECRET,
      on: { 'conversation.created': onCreated, 'conversation.updated': onUpdated },
    })
    const evt = event()
    const request = await signed(JSON.stringify(evt))
    const response = await handler(request)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ received: true })
    expect(onCreated).toHaveBeenCalledTimes(1)
    expect(onCreated).toHaveBeenCalledWith(evt, request)
    expect(onUpdated).not.toHaveBeenCalled()
  })

  it('types handlers from an event map', async () => {
    type Events = { 'conversation.created': { conversationId: string } }
    const ids: string[] = []
    const handler = createWebhookHandler<Events>({
      secret: SECRET,
      on: { 'conversation.created': (e) => void ids.push(e.data.conversationId) },
    })
    expect((await handler(await signed(JSON.stringify(event())))).status).toBe(200)
    expect(ids).toEqual(['conv_1'])
    // @ts-expect-error a type outside the map is a typo, caught at compile time
    createWebhookHandler<Events>({ secret: SECRET, on: { 'conversation.craeted': () => {} } })
  })

  it('refuses a tampered body and a wrong secret (401 invalid_signature) and a missing header (400)', async () => {
    const onCreated = vi.fn()
    const handler = createWebhookHandler({ secret: SECRET, on: { 'conversation.created': onCreated } })
    const body = JSON.stringify(event())
    const good = await signed(body)
    const tampered = new Request(URL_, {
      method: 'POST',
      headers: good.headers,
      body: body.replace('conv_1', 'conv_2'),
    })
    await expectError(await handler(tampered), 401, 'invalid_signature')
    await expectError(await handler(await signed(body, 'whsec_someone_else')), 401, 'invalid_signature')
    await expectError(await handler(new Request(URL_, { method: 'POST', body })), 400, 'missing_signature')
    const malformed = new Request(URL_, { method: 'POST', body, headers: { 'tandem-signature': 'nonsense' } })
    await expectError(await handler(malformed), 400, 'malformed_signature')
    expect(onCreated).not.toHaveBeenCalled()
  })

  it('accepts either secret during a rotation', async () => {
    const onCreated = vi.fn()
    const handler = createWebhookHandler({ secret: [SECRET, OLD], on: { 'conversation.created': onCreated } })
    expect((await handler(await signed(JSON.stringify(event()), OLD))).status).toBe(200)
    expect((await handler(await signed(JSON.stringify(event()), SECRET))).status).toBe(200)
    await expectError(await handler(await signed(JSON.stringify(event()), 'whsec_retired')), 401, 'invalid_signature')
    expect(onCreated).toHaveBeenCalledTimes(2)
  })

  it('refuses a stale or far-future timestamp with 401 timestamp_out_of_range', async () => {
    const onCreated = vi.fn()
    const handler = createWebhookHandler({
      secret: SECRET,
      toleranceSeconds: 60,
      on: { 'conversation.created': onCreated },
    })
    const now = Math.floor(Date.now() / 1000)
    await expectError(
      await handler(await signed(JSON.stringify(event()), SECRET, now - 120)),
      401,
      'timestamp_out_of_range',
    )
    await expectError(
      await handler(await signed(JSON.stringify(event()), SECRET, now + 120)),
      401,
      'timestamp_out_of_range',
    )
    expect((await handler(await signed(JSON.stringify(event()), SECRET, now - 30))).status).toBe(200)
    expect(onCreated).toHaveBeenCalledTimes(1)
  })

  it('refuses a replayed delivery with 409 duplicate_delivery, even re-signed', async () => {
    const onCreated = vi.fn()
    const handler = createWebhookHandler({ secret: SECRET, on: { 'conversation.created': onCreated } })
    const body = JSON.stringify(event())
    const first = await signed(body)
    const replay = new Request(URL_, { method: 'POST', headers: first.headers, body })
    expect((await handler(first)).status).toBe(200)
    await expectError(await handler(replay), 409, 'duplicate_delivery')
    await expectError(await handler(await signed(body)), 409, 'duplicate_delivery')
    expect(onCreated).toHaveBeenCalledTimes(1)
  })

  it('a copy of a delivery still being handled gets a retryable 503 (never the 409 of a handled one)', async () => {
    let release = (): void => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const onCreated = vi.fn(() => gate)
    const handler = createWebhookHandler({ secret: SECRET, on: { 'conversation.created': onCreated } })
    const body = JSON.stringify(event())
    const slow = handler(await signed(body))
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledTimes(1), { timeout: 2_000 })
    const copy = await handler(await signed(body))
    expect(copy.headers.get('retry-after')).toBe('5')
    await expectError(copy, 503, 'delivery_in_flight')
    release()
    expect((await slow).status).toBe(200)
    await expectError(await handler(await signed(body)), 409, 'duplicate_delivery')
  })

  it.each([
    ['an older store (seen, then remember)', 'legacy'],
    ['a claiming store', 'claim'],
  ] as const)('50 concurrent copies with %s that answers in 5 ms: the handler runs once', async (_, kind) => {
    const memory = createMemoryReplayStore()
    const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 5))
    const store: WebhookReplayStore =
      kind === 'legacy'
        ? { seen: (id) => later(memory.seen(id)), remember: (id, ttl) => later(memory.remember(id, ttl)) }
        : {
            claim: (id, ttl) => later(memory.claim(id, ttl)),
            complete: (id, ttl) => later(memory.complete(id, ttl)),
            release: (id) => later(memory.release(id)),
            completed: (id) => later(memory.completed(id)),
          }
    const onCreated = vi.fn(() => new Promise<void>((resolve) => setTimeout(resolve, 20)))
    const handler = createWebhookHandler({
      secret: SECRET,
      on: { 'conversation.created': onCreated },
      replayStore: store,
    })
    const body = JSON.stringify(event())
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async () => (await handler(await signed(body))).status),
    )
    expect(onCreated).toHaveBeenCalledTimes(1)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s !== 200 && s !== 503 && s !== 409)).toEqual([])
  })

  it('a store that never answers: 503 replay_store_unavailable at storeTimeoutMs, handler not run', async () => {
    const onCreated = vi.fn()
    let asked = 0
    const never = () => {
      asked++
      return new Promise<never>(() => {})
    }
    for (const replayStore of [
      { seen: never, remember: never },
      { claim: never, complete: never, release: never },
    ] as WebhookReplayStore[]) {
      const handler = createWebhookHandler({
        secret: SECRET,
        on: { 'conversation.created': onCreated },
        replayStore,
        storeTimeoutMs: 100,
      })
      const request = await signed(JSON.stringify(event()))
      // The clock is the test's: the answer comes at storeTimeoutMs exactly, however busy the machine.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      const before = asked
      let answered: Response | undefined
      void handler(request).then((r) => (answered = r))
      await waitUntil(() => asked > before, { what: 'the store asked' })
      await vi.advanceTimersByTimeAsync(99)
      expect(answered).toBeUndefined()
      await vi.advanceTimersByTimeAsync(1)
      await waitUntil(() => answered !== undefined, { what: 'the answer at storeTimeoutMs' })
      vi.useRealTimers()
      await expectError(answered!, 503, 'replay_store_unavailable')
    }
    expect(onCreated).not.toHaveBeenCalled()
  })

  it('a claim whose completion fails still guards the event: a later copy is not handled again', async () => {
    const memory = createMemoryReplayStore()
    const store: WebhookReplayStore = {
      claim: memory.claim,
      release: memory.release,
      completed: memory.completed,
      complete: () => Promise.reject(new Error('redis went away')),
    }
    const onCreated = vi.fn()
    const handler = createWebhookHandler({
      secret: SECRET,
      on: { 'conversation.created': onCreated },
      replayStore: store,
    })
    const body = JSON.stringify(event())
    expect((await handler(await signed(body))).status).toBe(200)
    await expectError(await handler(await signed(body)), 503, 'delivery_in_flight')
    expect(onCreated).toHaveBeenCalledTimes(1)
  })

  it('answers 500 with a fixed message when a handler throws, and accepts the retry', async () => {
    let fail = true
    const onCreated = vi.fn(async () => {
      if (fail) throw new Error(`db down: postgres://user:${SECRET}@db`)
    })
    const handler = createWebhookHandler({ secret: SECRET, on: { 'conversation.created': onCreated } })
    const body = JSON.stringify(event())
    const message = await expectError(await handler(await signed(body)), 500, 'internal_error')
    expect(message).not.toContain(SECRET)
    expect(message).not.toContain('postgres')
    fail = false
    expect((await handler(await signed(body))).status).toBe(200)
    await expectError(await handler(await signed(body)), 409, 'duplicate_delivery')
    expect(onCreated).toHaveBeenCalledTimes(2)
  })

  it('acknowledges a type without a handler, through onUnhandled when given', async () => {
    const quiet = createWebhookHandler({ secret: SECRET, on: {} })
    expect((await quiet(await signed(JSON.stringify(event('channel.vacated'))))).status).toBe(200)
    // A type named like an Object.prototype member is not a handler.
    expect((await quiet(await signed(JSON.stringify(event('constructor'))))).status).toBe(200)
    const onUnhandled = vi.fn()
    const handler = createWebhookHandler({ secret: SECRET, on: { 'conversation.created': vi.fn() }, onUnhandled })
    const evt = event('message.published')
    expect((await handler(await signed(JSON.stringify(evt)))).status).toBe(200)
    expect(onUnhandled).toHaveBeenCalledWith(evt, expect.any(Request))
  })

  it('answers 400 for signed bodies that are not JSON or not an event', async () => {
    const handler = createWebhookHandler({ secret: SECRET, on: {} })
    await expectError(await handler(await signed('{"id":')), 400, 'invalid_json')
    await expectError(await handler(await signed('')), 400, 'invalid_json')
    for (const body of [
      '[]',
      'null',
      '"evt"',
      '{"type":"x"}',
      '{"id":"evt_1"}',
      '{"id":1,"type":"x"}',
      `{"id":"${'e'.repeat(300)}","type":"x"}`,
    ]) {
      await expectError(await handler(await signed(body)), 400, 'invalid_event')
    }
  })

  it('answers 413 for a body over the cap, declared or streamed', async () => {
    const handler = createWebhookHandler({ secret: SECRET, on: {} })
    const big = JSON.stringify({ ...event(), data: 'x'.repeat(1024 * 1024) })
    await expectError(await handler(await signed(big)), 413, 'payload_too_large')
    const small = createWebhookHandler({ secret: SECRET, on: {}, maxBodyBytes: 100 })
    const chunk = new TextEncoder().encode('y'.repeat(64))
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(chunk) // endless: only the cap ends it
      },
    })
    const streamed = new Request(URL_, { method: 'POST', body: stream, duplex: 'half' } as RequestInit)
    await expectError(await small(streamed), 413, 'payload_too_large')
  })

  it('answers 405 with Allow: POST for other methods', async () => {
    const handler = createWebhookHandler({ secret: SECRET, on: {} })
    for (const method of ['GET', 'PUT', 'DELETE', 'OPTIONS']) {
      const response = await handler(new Request(URL_, { method }))
      await expectError(response, 405, 'method_not_allowed')
      expect(response.headers.get('allow')).toBe('POST')
    }
  })

  it('uses a pluggable (older) replay store with a ttl covering the window, and 503s if it fails', async () => {
    const seen = new Set<string>()
    const remember = vi.fn((id: string) => void seen.add(id))
    const store: WebhookReplayStore = { seen: async (id) => seen.has(id), remember }
    const handler = createWebhookHandler({ secret: SECRET, toleranceSeconds: 120, on: {}, replayStore: store })
    const body = JSON.stringify(event())
    expect((await handler(await signed(body))).status).toBe(200)
    expect(remember).toHaveBeenCalledWith(JSON.parse(body).id, 240)
    await expectError(await handler(await signed(body)), 409, 'duplicate_delivery')
    const broken = createWebhookHandler({
      secret: SECRET,
      on: {},
      replayStore: { seen: () => Promise.reject(new Error('redis')), remember },
    })
    await expectError(await broken(await signed(JSON.stringify(event()))), 503, 'replay_store_unavailable')
  })

  it('rejects bad options at creation with a TypeError or RangeError', () => {
    const on = {}
    expect(() => createWebhookHandler({ secret: '', on })).toThrow(TypeError)
    expect(() => createWebhookHandler({ secret: [], on })).toThrow(TypeError)
    expect(() => createWebhookHandler({ secret: [SECRET, ''], on })).toThrow(TypeError)
    expect(() => createWebhookHandler({ secret: SECRET, on, toleranceSeconds: -1 })).toThrow(TypeError)
    expect(() => createWebhookHandler({ secret: SECRET, on: null as unknown as Record<string, never> })).toThrow(
      TypeError,
    )
    expect(() => createWebhookHandler({ secret: SECRET, on, maxBodyBytes: 0 })).toThrow(RangeError)
    for (const leaseSeconds of [0, -1, Number.NaN, Infinity])
      expect(() => createWebhookHandler({ secret: SECRET, on, leaseSeconds })).toThrow(RangeError)
    expect(() => createWebhookHandler({ secret: SECRET, on, replayStore: {} as WebhookReplayStore })).toThrow(TypeError)
  })
})
