// The webhook module's controls and edge cases: registration, filters, reset, waits,
// network failures and the bounded log.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createWebhookModule, type WebhookModule } from '../webhooks/module.js'
import type { WebhookOptions } from '../webhooks/types.js'
import { answer, startReceiver, type Receiver, type ReceiverListener } from './webhooks-receiver.js'

const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

function moduleWith(options: WebhookOptions = { retryDelaysMs: [20] }, appIds?: string[]): WebhookModule {
  const webhooks = createWebhookModule(options, appIds ? { appIds } : {})
  cleanup.push(() => webhooks.close())
  return webhooks
}

async function receiver(listener: ReceiverListener = answer(200)): Promise<Receiver> {
  const r = await startReceiver(listener)
  cleanup.push(() => r.close())
  return r
}

/** A loopback port nobody listens on (bound, then released). */
async function deadUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/gone`
}

describe('register / unregister', () => {
  it('refuses anything but an absolute http(s) URL without credentials, with a TypeError', () => {
    const { controls } = moduleWith()
    for (const url of [
      'ftp://example.com/h',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ws://127.0.0.1/h',
      '/relative',
      'not a url',
      'https://user:pw@example.com/h',
    ]) {
      expect(() => controls.register({ url }), url).toThrow(TypeError)
    }
    expect(() => controls.register({ url: 42 as unknown as string })).toThrow(TypeError)
    expect(() => controls.register({ url: 'https://example.com/h', events: [] })).toThrow(TypeError)
    expect(() => controls.register({ url: 'https://example.com/h', secret: '' })).toThrow(TypeError)
    expect(controls.endpoints).toEqual([])
  })

  it('defaults to the first app, all events and a generated secret; refuses unknown apps when apps are known', () => {
    const { controls } = moduleWith({}, ['app_a', 'app_b'])
    const { id, secret } = controls.register({ url: 'https://example.com/h' })
    expect(controls.endpoints).toEqual([
      { id, url: 'https://example.com/h', appId: 'app_a', events: ['*'], secret, source: 'register' },
    ])
    const other = controls.register({
      url: 'http://127.0.0.1:1/x',
      appId: 'app_b',
      events: ['channel.*'],
      secret: 'whsec_mine',
    })
    expect(other.secret).toBe('whsec_mine')
    expect(other.id).not.toBe(id)
    expect(() => controls.register({ url: 'https://example.com/h', appId: 'app_zzz' })).toThrow(TypeError)
    expect(() => controls.send('thread.created', {}, { appId: 'app_zzz' })).toThrow(TypeError)
    expect(controls.unregister(id)).toBe(true)
    expect(controls.unregister(id)).toBe(false)
    expect(controls.endpoints.map((e) => e.id)).toEqual([other.id])
  })

  it('validates options at creation', () => {
    expect(() => createWebhookModule({ retryDelaysMs: [-1] })).toThrow(RangeError)
    expect(() => createWebhookModule({ retryDelaysMs: new Array(21).fill(1) as number[] })).toThrow(RangeError)
    expect(() => createWebhookModule({ timeoutMs: 0 })).toThrow(RangeError)
    expect(() => createWebhookModule({ endpoints: [{ url: 'mailto:a@b.c' }] })).toThrow(TypeError)
  })
})

describe('routing and filters', () => {
  it('sends an event only to endpoints of its app subscribed to its type', async () => {
    const webhooks = moduleWith({}, ['app_a', 'app_b'])
    const all = await receiver()
    const channels = await receiver()
    const appB = await receiver()
    webhooks.controls.register({ url: all.url })
    webhooks.controls.register({ url: channels.url, events: ['channel.*', 'thread.created'] })
    webhooks.controls.register({ url: appB.url, appId: 'app_b' })
    const types = ['conversation.created', 'channel.occupied', 'thread.created', 'message.published']
    const ids = types.map((type) => webhooks.controls.send(type, { type }).id)
    const b = webhooks.controls.send('channel.vacated', {}, { appId: 'app_b' })
    // dispatch is what the services call; it queues the same way.
    webhooks.dispatch('app_a', { type: 'channel.vacated', data: { channel: 'chat:2' } })
    // 5 to the catch-all, 3 to the filtered one, 1 to app_b; the predicate may read the whole log.
    const delivered = () => webhooks.controls.deliveries.filter((d) => d.outcome === 'delivered').length
    await webhooks.controls.waitFor(() => delivered() === 9)
    expect(all.hits).toHaveLength(5)
    expect(all.hits.slice(0, 4).map((h) => h.headers['tandem-event-id'])).toEqual(ids)
    expect(channels.hits.map((h) => JSON.parse(h.body).type)).toEqual([
      'channel.occupied',
      'thread.created',
      'channel.vacated',
    ])
    expect(appB.hits.map((h) => JSON.parse(h.body))).toEqual([
      expect.objectContaining({ id: b.id, appId: 'app_b', type: 'channel.vacated' }),
    ])
    expect(webhooks.controls.pending).toBe(0)
  })

  it('dispatch never throws, even for a malformed event; send reports it', () => {
    const webhooks = moduleWith()
    webhooks.controls.register({ url: 'http://127.0.0.1:9/never' })
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    cleanup.push(() => quiet.mockRestore())
    const circular: Record<string, unknown> = {}
    circular.self = circular
    expect(() => webhooks.dispatch('app_dev', { type: 'message.published', data: circular })).not.toThrow()
    expect(() => webhooks.dispatch('app_dev', undefined as unknown as { type: string; data: unknown })).not.toThrow()
    expect(() => webhooks.dispatch('', { type: 'x', data: 1 })).not.toThrow()
    expect(quiet).toHaveBeenCalledTimes(3)
    expect(webhooks.controls.pending).toBe(0)
    expect(() => webhooks.controls.send('message.published', circular)).toThrow(TypeError)
    expect(() => webhooks.controls.send('')).toThrow(TypeError)
  })
})

describe('failures, waits, reset and bounds', () => {
  it('logs network errors with status 0 and timeouts by name', async () => {
    // Each in a module of its own: on a busy machine a 100 ms timeout can fire before a refusal is read.
    const refusing = moduleWith({ retryDelaysMs: [10], timeoutMs: 30_000 })
    const refused = refusing.controls.register({ url: await deadUrl(), events: ['thread.created'] })
    const a = refusing.controls.send('thread.created', {})
    const failedA = await refusing.controls.waitFor((d) => d.eventId === a.id && d.outcome === 'failed')
    expect(failedA).toMatchObject({ endpointId: refused.id, attempt: 2, status: 0, error: 'ECONNREFUSED' })
    const webhooks = moduleWith({ retryDelaysMs: [10], timeoutMs: 100 })
    const hanging = await receiver(() => {})
    webhooks.controls.register({ url: hanging.url, events: ['channel.occupied'] })
    const b = webhooks.controls.send('channel.occupied', {})
    const failedB = await webhooks.controls.waitFor((d) => d.eventId === b.id && d.outcome === 'failed')
    expect(failedB).toMatchObject({ attempt: 2, status: 0, error: 'timed out after 100 ms' })
  })

  it('waitFor resolves from entries already logged, rejects a bad predicate and times out bounded', async () => {
    const webhooks = moduleWith()
    const r = await receiver()
    webhooks.controls.register({ url: r.url })
    const { id } = webhooks.controls.send('thread.created', {})
    const first = await webhooks.controls.waitFor((d) => d.eventId === id)
    await expect(webhooks.controls.waitFor((d) => d.eventId === id)).resolves.toBe(first)
    await expect(webhooks.controls.waitFor(() => false, { timeoutMs: 30 })).rejects.toThrow(
      /timed out after 30 ms; last: thread.created/,
    )
    await expect(
      webhooks.controls.waitFor(() => {
        throw new Error('bad predicate')
      }),
    ).rejects.toThrow('bad predicate')
    await expect(webhooks.controls.waitFor(() => true, { timeoutMs: 0 })).rejects.toThrow(RangeError)
  })

  it('reset() clears the log and queues, keeps endpoints from options and drops registered ones', async () => {
    const kept = await receiver(answer(500))
    const webhooks = moduleWith({
      endpoints: [{ url: kept.url, secret: 'whsec_from_options' }],
      retryDelaysMs: [60_000],
    })
    const [configured] = webhooks.controls.endpoints
    expect(configured).toMatchObject({
      url: kept.url,
      secret: 'whsec_from_options',
      source: 'options',
      appId: 'app_dev',
    })
    webhooks.controls.register({ url: 'https://example.com/h' })
    webhooks.controls.send('thread.created', {})
    await webhooks.controls.waitFor((d) => d.endpointId === configured?.id && d.outcome === 'retrying')
    expect(webhooks.controls.pending).toBeGreaterThan(0)

    const log = webhooks.controls.deliveries
    webhooks.reset()
    expect(log).toHaveLength(0) // cleared in place: a held reference stays live
    expect(webhooks.controls.pending).toBe(0)
    expect(webhooks.controls.endpoints).toEqual([configured])
  })

  it('bounds the log at 1000 entries and each endpoint queue at 1000 events', async () => {
    const webhooks = moduleWith({ retryDelaysMs: [] })
    webhooks.controls.register({ url: await deadUrl() })
    const ids = Array.from({ length: 1005 }, (_, n) => webhooks.controls.send('message.published', { n }).id)
    expect(webhooks.controls.pending).toBe(1000)
    expect(webhooks.controls.deliveries.filter((d) => d.error === 'queue full').map((d) => d.eventId)).toEqual(
      ids.slice(1000),
    )
    await webhooks.controls.waitFor((d) => d.eventId === ids[999] && d.outcome === 'failed', { timeoutMs: 20_000 })
    expect(webhooks.controls.deliveries).toHaveLength(1000)
    expect(webhooks.controls.pending).toBe(0)
  }, 30_000)
})
