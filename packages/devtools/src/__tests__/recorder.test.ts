import { describe, expect, it } from 'vitest'
import type { RetryEvent } from '@tandem/core'
import { poll, until, waitUntil } from '../../../../test/utils/wait.js'
import { createDevtoolsRecorder } from '../recorder.js'
import { createRing } from '../ring.js'
import { setup } from './helpers.js'

// The recorder against the emulator: one row per call with its attempts and retry reasons, frames
// as the realtime gives them (and redacted again), bounded rings, nothing after stop().

const resources = { service: 'maps', method: 'GET', path: '/v1/resources' } as const

describe('the recorder', () => {
  it('keeps a row per call: method, /service/path without the query, status, request id, its attempt', async () => {
    const s = await setup()
    const recorder = createDevtoolsRecorder({ client: s.client })
    const notified: unknown[] = []
    recorder.subscribe(() => notified.push(recorder.getSnapshot()))
    await s.client.request({ ...resources, query: { limit: 2, note: 'in-the-query' } })

    const [row] = recorder.getSnapshot().requests
    const [event] = s.requests
    expect(row).toMatchObject({
      callId: event!.callId,
      method: 'GET',
      path: '/maps/v1/resources',
      state: 'done',
      status: 200,
      requestId: event!.requestId,
      attempts: [{ attempt: 0, status: 200, requestId: event!.requestId, retry: undefined }],
    })
    expect(row!.requestId).toMatch(/\S/)
    expect(JSON.stringify(recorder.getSnapshot())).not.toContain('in-the-query')
    // Told a microtask later, once per burst; the snapshot is the same object until the next change.
    await poll(() => notified.length > 0, 'a notification')
    expect(recorder.getSnapshot()).toBe(notified.at(-1))
    expect(recorder.getSnapshot()).toBe(recorder.getSnapshot())
  })

  it('groups a call retried after a 503 and after a 429 into one row: each attempt, why it was retried, the wait', async () => {
    const s = await setup()
    const recorder = createDevtoolsRecorder({ client: s.client })
    const retries: RetryEvent[] = []
    s.client.on('retry', (e) => void retries.push(e))
    s.emu.faults.failNext(1, { service: 'maps', status: 503 })
    s.emu.faults.rateLimitNext(1, { service: 'maps', retryAfterSeconds: 1 })
    await s.client.request(resources)

    const rows = recorder.getSnapshot().requests
    expect(rows).toHaveLength(1)
    const [row] = rows
    expect(row!.attempts.map((a) => a.status)).toEqual([503, 429, 200])
    expect(row!.attempts.map((a) => a.retry?.reason)).toEqual([retries[0]!.reason, retries[1]!.reason, undefined])
    expect(retries.map((r) => r.reason).every((reason) => reason.length > 0)).toBe(true)
    expect(row!.attempts[1]!.retry!.delayMs).toBe(retries[1]!.delayMs)
    // The 429's Retry-After held the queue: the retry waited there, and the row says so.
    expect(row!.rateLimitWaits).toEqual([{ waitMs: expect.any(Number), reason: 'retry-after' }])
    expect(row).toMatchObject({ state: 'done', status: 200, requestId: s.requests.at(-1)!.requestId })
    expect(row!.durationMs).toBeGreaterThanOrEqual(row!.rateLimitWaits[0]!.waitMs)
    expect(recorder.getSnapshot().rateLimitWaits).toMatchObject([{ service: 'maps', callId: row!.callId }])
  })

  it('shows a call as retrying between its attempts', async () => {
    const s = await setup({ client: { retry: { baseDelayMs: 400, maxDelayMs: 400 } } })
    const recorder = createDevtoolsRecorder({ client: s.client })
    s.emu.faults.failNext(1, { service: 'maps', status: 503 })
    const done = s.client.request(resources)
    await until(
      (cb) => recorder.subscribe(cb),
      () => recorder.getSnapshot().requests[0]?.state === 'retrying',
      5_000,
      'the row retrying',
    )
    await done
    expect(recorder.getSnapshot().requests[0]).toMatchObject({ state: 'done', status: 200 })
  })

  it('records frames in and out, redacted, their text cut so memory stays bounded', async () => {
    const s = await setup()
    const recorder = createDevtoolsRecorder({ client: s.client, realtime: s.realtime }, { maxFrameChars: 300 })
    const channel = s.realtime.channel('devtools:frames')
    const off = channel.subscribe(() => {})
    await waitUntil(() => channel.state === 'subscribed', { what: 'subscribed' })
    const token = s.tokens[0]!
    await channel.publish('note', { text: `Bearer ${token}`, big: 'x'.repeat(5_000) })
    await waitUntil(() => recorder.getSnapshot().frames.some((f) => f.type === 'message'), { what: 'the message in' })

    const { frames } = recorder.getSnapshot()
    const publish = frames.find((f) => f.type === 'publish')!
    expect(publish).toMatchObject({ direction: 'out', channel: 'devtools:frames', truncated: true })
    expect(publish.size).toBeGreaterThan(5_000)
    expect(publish.text.length).toBe(300)
    expect(publish.text).toContain('Bearer [redacted]')
    expect(frames.find((f) => f.type === 'ack')).toMatchObject({ direction: 'in', channel: 'devtools:frames' })
    expect(frames.at(-1)).toMatchObject({ direction: 'out', type: 'connect' }) // oldest last
    expect(frames.at(-1)!.text).toContain('[redacted]')
    expect(JSON.stringify(recorder.getSnapshot())).not.toContain(token)
    off()
  })

  it('keeps its rings bounded: 1,000 frames in, the newest 200 kept; calls past maxRequests pushed out', async () => {
    const s = await setup()
    const recorder = createDevtoolsRecorder({ client: s.client, realtime: s.realtime }, { maxRequests: 5 })
    const channel = s.realtime.channel('devtools:flood')
    const off = channel.subscribe(() => {})
    await waitUntil(() => channel.state === 'subscribed', { what: 'subscribed' })
    for (let i = 1; i <= 1_000; i++) s.emu.realtime.publish('devtools:flood', 'n', { i })
    await waitUntil(() => recorder.getSnapshot().frames[0]?.text.includes('"i":1000') === true, {
      what: 'the 1,000th message recorded',
      timeoutMs: 10_000,
    })
    const { frames, totals } = recorder.getSnapshot()
    expect(frames).toHaveLength(200)
    expect(totals.frames).toBeGreaterThanOrEqual(1_000)
    expect(frames.at(-1)!.text).toContain('"i":801') // the newest 200 of the 1,000
    for (let i = 0; i < 12; i++) await s.client.request(resources)
    const { requests } = recorder.getSnapshot()
    expect(requests.map((r) => r.callId)).toEqual(
      s.requests
        .slice(-5)
        .map((e) => e.callId)
        .reverse(),
    )
    expect(recorder.getSnapshot().totals.requests).toBe(12)
    off()
  })

  it('records tokens by their expiry only, connection states and errors; stop() ends it, clear() forgets', async () => {
    const s = await setup()
    const recorder = createDevtoolsRecorder({ client: s.client, realtime: s.realtime })
    s.realtime.connect()
    await waitUntil(() => s.realtime.state === 'connected', { what: 'connected' })
    const snap = recorder.getSnapshot()
    expect(snap.tokens).toMatchObject([{ kind: 'token', expiresIn: 600 }])
    expect(snap.timeline.map((r) => (r.kind === 'state' ? r.current : r.kind))).toEqual([
      'connected',
      'connecting',
      'start',
    ])
    expect(JSON.stringify(snap)).not.toContain(s.tokens[0])

    recorder.clear()
    expect(recorder.getSnapshot()).toMatchObject({ requests: [], frames: [], timeline: [], tokens: [] })
    expect(recorder.getSnapshot().totals.frames).toBe(0)
    recorder.stop()
    await s.client.request(resources)
    s.realtime.close()
    expect(recorder.getSnapshot()).toMatchObject({ requests: [], frames: [], timeline: [] })
  })

  it('starts its timeline with the state it found: idle before the first connect, connected (and its id) after', async () => {
    const s = await setup()
    const early = createDevtoolsRecorder({ realtime: s.realtime })
    expect(early.getSnapshot().timeline).toMatchObject([{ kind: 'start', state: 'idle', connectionId: undefined }])
    s.realtime.connect()
    await waitUntil(() => s.realtime.state === 'connected', { what: 'connected' })
    const oldestFirst = (r: typeof early) =>
      r
        .getSnapshot()
        .timeline.map((row) => (row.kind === 'state' ? `${row.previous} → ${row.current}` : row.kind))
        .reverse()
    expect(oldestFirst(early)).toEqual(['start', 'idle → connecting', 'connecting → connected'])

    // Made late, it says so: its first row is the state it found, not a connect it never saw.
    const connectionId = s.realtime.connectionId!
    expect(connectionId).toMatch(/\S/)
    const late = createDevtoolsRecorder({ client: s.client, realtime: s.realtime })
    expect(late.getSnapshot().timeline).toEqual([
      { kind: 'start', seq: expect.any(Number), at: expect.any(Number), state: 'connected', connectionId },
    ])
    expect(late.getSnapshot().totals.timeline).toBe(1)
    expect(JSON.stringify(late.getSnapshot())).not.toContain(s.tokens[0])
    // Without a realtime connection there is no timeline to start.
    expect(createDevtoolsRecorder({ client: s.client }).getSnapshot().timeline).toEqual([])
    early.stop()
    late.stop()
  })
})

describe('the ring', () => {
  it('pushes out the oldest, reads newest first', () => {
    const ring = createRing<number>(3)
    expect([1, 2, 3, 4, 5].map((n) => ring.push(n))).toEqual([undefined, undefined, undefined, 1, 2])
    expect(ring.newestFirst()).toEqual([5, 4, 3])
    ring.clear()
    expect(ring.newestFirst()).toEqual([])
    expect(() => createRing(0)).toThrow(RangeError)
  })
})
