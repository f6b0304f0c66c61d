// Webhook delivery end to end over real HTTP: emulator → node:http receiver → createWebhookHandler.
import { createWebhookHandler, toNodeListener, verifyWebhook, type WebhookEvent } from '@tandem/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startEmulator } from '../start.js'
import type { Emulator, EmulatorOptions } from '../types.js'
import { answer, startReceiver, type Receiver, type ReceiverListener } from './webhooks-receiver.js'
import { slack, within } from '../../../../test/utils/wait.js'

const SHORT = { retryDelaysMs: [50, 100] }
const cleanup: Array<() => Promise<void>> = []

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function emulator(options: EmulatorOptions = { webhooks: SHORT }): Promise<Emulator> {
  const emu = await startEmulator(options)
  cleanup.push(() => emu.close())
  return emu
}

async function receiver(listener: ReceiverListener): Promise<Receiver> {
  const r = await startReceiver(listener)
  cleanup.push(() => r.close())
  return r
}

/** A receiver running the real handler; its secret is only known once the endpoint is registered. */
async function handlerReceiver(on: Parameters<typeof createWebhookHandler>[0]['on']) {
  let listener: ReturnType<typeof toNodeListener> | undefined
  const r = await receiver((req, res) => listener?.(req, res))
  return { receiver: r, mount: (secret: string) => (listener = toNodeListener(createWebhookHandler({ secret, on }))) }
}

describe('emulator webhooks over HTTP', () => {
  it('delivers a signed payload that createWebhookHandler accepts, then refuses its replay', async () => {
    const emu = await emulator()
    const onCreated = vi.fn()
    const { receiver: r, mount } = await handlerReceiver({ 'conversation.created': onCreated })
    const { id: endpointId, secret } = emu.webhooks.register({ url: r.url })
    expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/)
    mount(secret)

    const payload = emu.webhooks.send('conversation.created', { conversationId: 'conv_9', subject: 'Hello' })
    const delivered = await emu.webhooks.waitFor((d) => d.eventId === payload.id && d.outcome !== 'retrying')
    expect(delivered).toMatchObject({
      eventId: payload.id,
      endpointId,
      type: 'conversation.created',
      url: r.url,
      attempt: 1,
      status: 200,
      outcome: 'delivered',
    })
    expect(delivered.error).toBeUndefined()
    expect(emu.webhooks.pending).toBe(0)

    expect(onCreated).toHaveBeenCalledTimes(1)
    const event = onCreated.mock.calls[0]?.[0] as WebhookEvent
    expect(event).toEqual({
      id: payload.id,
      type: 'conversation.created',
      createdAt: payload.createdAt,
      appId: 'app_dev',
      data: { conversationId: 'conv_9', subject: 'Hello' },
    })
    expect(event.id).toMatch(/^evt_[0-9a-f]{24}$/)
    expect(new Date(event.createdAt).toISOString()).toBe(event.createdAt)

    const [hit] = r.hits
    expect(hit?.headers).toMatchObject({
      'content-type': 'application/json',
      'tandem-event-id': payload.id,
      'tandem-delivery-attempt': '1',
      'user-agent': 'tandem-emulator',
    })
    await expect(
      verifyWebhook({ body: hit?.body ?? '', header: hit?.headers['tandem-signature'] as string, secret }),
    ).resolves.toBeTruthy()

    // The captured request, sent again by an attacker within the window: refused.
    const replay = await fetch(r.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'tandem-signature': hit?.headers['tandem-signature'] as string },
      body: hit?.body ?? '',
    })
    expect(replay.status).toBe(409)
    expect(((await replay.json()) as { error: { code: string } }).error.code).toBe('duplicate_delivery')
    expect(onCreated).toHaveBeenCalledTimes(1)
    expect(JSON.stringify(emu.webhooks.deliveries)).not.toContain(secret)
  })

  it('retries a handler that fails twice: 3 attempts, same event id, fresh signatures, delivered', async () => {
    const emu = await emulator()
    let calls = 0
    const onUpdated = vi.fn(() => {
      if (++calls <= 2) throw new Error('database unavailable')
    })
    const { receiver: r, mount } = await handlerReceiver({ 'conversation.updated': onUpdated })
    const { secret } = emu.webhooks.register({ url: r.url, events: ['conversation.updated'] })
    mount(secret)

    const payload = emu.webhooks.send('conversation.updated', { conversationId: 'conv_1', status: 'closed' })
    await emu.webhooks.waitFor((d) => d.eventId === payload.id && d.outcome === 'delivered')
    await r.waitUntil(() => r.hits.every((h) => h.status !== undefined)) // the receiver's side of the last answer
    const log = emu.webhooks.deliveries.filter((d) => d.eventId === payload.id)
    expect(log.map((d) => [d.attempt, d.status, d.outcome, d.error])).toEqual([
      [1, 500, 'retrying', 'HTTP 500'],
      [2, 500, 'retrying', 'HTTP 500'],
      [3, 200, 'delivered', undefined],
    ])
    expect(r.hits.map((h) => [h.headers['tandem-event-id'], h.headers['tandem-delivery-attempt'], h.status])).toEqual([
      [payload.id, '1', 500],
      [payload.id, '2', 500],
      [payload.id, '3', 200],
    ])
    expect(new Set(r.hits.map((h) => h.body)).size).toBe(1) // the same bytes every time
    expect(onUpdated).toHaveBeenCalledTimes(3)
  })

  it('marks an event failed once the delays run out, and never logs the secret', async () => {
    const emu = await emulator()
    const r = await receiver(answer(500))
    const { secret } = emu.webhooks.register({ url: r.url, secret: 'whsec_never_in_the_log_5b7d9f' })
    const payload = emu.webhooks.send('message.published', { channel: 'chat:lobby', text: 'hi' })
    const failed = await emu.webhooks.waitFor((d) => d.eventId === payload.id && d.outcome === 'failed')
    expect(failed).toMatchObject({ attempt: 3, status: 500, error: 'HTTP 500' })
    expect(emu.webhooks.deliveries.map((d) => d.outcome)).toEqual(['retrying', 'retrying', 'failed'])
    expect(r.hits).toHaveLength(3)
    expect(emu.webhooks.pending).toBe(0)
    const logText = JSON.stringify(emu.webhooks.deliveries)
    expect(logText).not.toContain(secret)
    for (const hit of r.hits) expect(logText).not.toContain(String(hit.headers['tandem-signature']).slice(-64))
  })

  it('a slow handler that times out and then throws: the copy sent meanwhile is told to retry, and the event is handled once', async () => {
    // Attempt 1 outlasts the sender's 500 ms; attempt 2 arrives while it still runs (503, retryable,
    // never the 409 of a handled event); attempt 1 then throws and gives its claim back; attempt 3 lands.
    // Attempt 1 runs until the sender has logged attempt 2, not for a fixed 900 ms: on a busy machine
    // attempt 2 came after 900 ms, when the claim was already given back.
    const emu = await emulator({ webhooks: { retryDelaysMs: [100, 800, 800], timeoutMs: 500 } })
    let runs = 0
    let handled = 0
    let eventId = ''
    const onUpdated = vi.fn(async () => {
      if (++runs === 1) {
        await emu.webhooks.waitFor((d) => d.eventId === eventId && d.attempt === 2, { timeoutMs: 10_000 })
        throw new Error('gave up')
      }
      handled++
    })
    const { receiver: r, mount } = await handlerReceiver({ 'conversation.updated': onUpdated })
    const { secret } = emu.webhooks.register({ url: r.url, events: ['conversation.updated'] })
    mount(secret)
    const payload = emu.webhooks.send('conversation.updated', { conversationId: 'conv_1' })
    eventId = payload.id
    const done = await emu.webhooks.waitFor((d) => d.eventId === payload.id && d.outcome !== 'retrying', {
      timeoutMs: 15_000,
    })
    expect(done).toMatchObject({ outcome: 'delivered', status: 200 })
    const log = emu.webhooks.deliveries.filter((d) => d.eventId === payload.id)
    expect(log.map((d) => d.status)).toContain(503) // the copy during the slow run: retry, not "delivered"
    expect(handled).toBe(1)
  })

  it("treats a handler's 409 duplicate_delivery as delivered: the receiver already has the event", async () => {
    const emu = await emulator()
    const r = await receiver(answer(409))
    emu.webhooks.register({ url: r.url })
    const payload = emu.webhooks.send('conversation.updated', { id: 'cnv_1' })
    const done = await emu.webhooks.waitFor((d) => d.eventId === payload.id && d.outcome !== 'retrying')
    expect(done).toMatchObject({ outcome: 'delivered', status: 409, attempt: 1 })
    expect(r.hits).toHaveLength(1)
  })

  it('delivers in order per endpoint: a retrying event holds back the ones after it', async () => {
    const emu = await emulator()
    const r = await receiver((req, res, _hit, index) => answer(index === 0 ? 503 : 204)(req, res, _hit, index))
    emu.webhooks.register({ url: r.url })
    const ids = [
      'thread.created',
      'channel.occupied',
      'message.published',
      'channel.vacated',
      'conversation.created',
    ].map((type, i) => emu.webhooks.send(type, { n: i }).id)
    expect(emu.webhooks.pending).toBe(5)
    await emu.webhooks.waitFor((d) => d.eventId === ids[4] && d.outcome === 'delivered')
    expect(r.hits.map((h) => h.headers['tandem-event-id'])).toEqual([ids[0], ...ids])
    expect(emu.webhooks.deliveries.filter((d) => d.outcome === 'delivered').map((d) => d.eventId)).toEqual(ids)
  })

  it('keeps endpoints independent: a dead one does not hold back a live one', async () => {
    const emu = await emulator({ webhooks: { retryDelaysMs: [60_000] } })
    const dead = await receiver(answer(500))
    const live = await receiver(answer(200))
    const { id: deadId } = emu.webhooks.register({ url: dead.url })
    const { id: liveId } = emu.webhooks.register({ url: live.url })
    const ids = [1, 2, 3].map((n) => emu.webhooks.send('message.published', { n }).id)
    await emu.webhooks.waitFor((d) => d.endpointId === liveId && d.eventId === ids[2] && d.outcome === 'delivered')
    await emu.webhooks.waitFor((d) => d.endpointId === deadId && d.outcome === 'retrying')
    expect(live.hits).toHaveLength(3)
    expect(dead.hits).toHaveLength(1)
    expect(emu.webhooks.pending).toBe(3) // all three still queued behind the dead endpoint's retry
  })

  it('close() resolves promptly with a retry pending and a request in flight, aborting both', async () => {
    const emu = await startEmulator({ webhooks: { retryDelaysMs: [60_000, 60_000], timeoutMs: 60_000 } })
    const failing = await receiver(answer(500))
    const hanging = await receiver(() => {}) // never answers
    emu.webhooks.register({ url: failing.url, events: ['channel.occupied'] })
    emu.webhooks.register({ url: hanging.url, events: ['channel.vacated'] })
    emu.webhooks.send('channel.occupied', { channel: 'chat:1' })
    emu.webhooks.send('channel.vacated', { channel: 'chat:1' })
    await emu.webhooks.waitFor((d) => d.outcome === 'retrying')
    await hanging.waitUntil(() => hanging.hits.length === 1)
    expect(emu.webhooks.pending).toBe(2)
    const later = emu.webhooks.waitFor(() => false, { timeoutMs: 60_000 })

    await within(emu.close(), slack(4_000), 'close() with a 60 s retry and a 60 s request pending')
    expect(emu.webhooks.pending).toBe(0)
    await expect(later).rejects.toThrow(/closed/)
    await hanging.waitUntil(() => hanging.hits[0]?.aborted === true)
    // Nothing more is sent after close.
    expect(emu.webhooks.send('channel.occupied', {}).id).toMatch(/^evt_/)
    expect(emu.webhooks.pending).toBe(0)
    expect(failing.hits).toHaveLength(1)
  })
})
