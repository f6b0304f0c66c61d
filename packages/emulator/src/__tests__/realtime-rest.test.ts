import { createServer, type Server } from 'node:http'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { DEV_APP } from '../defaults.js'
import { createRealtimeModule } from '../realtime/module.js'
import type { Emulator } from '../types.js'
import type { WebhookEvent, WebhookModule } from '../webhooks/module.js'
import { authed, call, expectError, useEmulator } from './helpers.js'
import { TestSocket, type Frame } from './realtime-helpers.js'

const emu = useEmulator({ realtime: { heartbeatMs: 200, presenceGraceMs: 200 } })
const sockets: TestSocket[] = []
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
})
async function subscribed(subject: string, channel: string): Promise<{ socket: TestSocket; connected: Frame }> {
  const opened = await TestSocket.connect(emu(), await emu().mintToken({ subject }))
  sockets.push(opened.socket)
  await opened.socket.request({ type: 'subscribe', channels: [{ channel }] })
  return opened
}
const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  authed(emu(), path, { method: 'POST', json, headers })

describe('realtime REST', () => {
  it('a REST publish reaches WebSocket subscribers and shares offsets with socket publishes', async () => {
    const { socket } = await subscribed('ws-user', 'chat:rest')
    const res = await post('/realtime/v1/channels/chat%3Arest/messages', {
      event: 'message',
      data: { text: 'from rest' },
    })
    expect(res.status).toBe(201)
    const ack = (await res.json()) as Frame
    expect(ack).toMatchObject({ offset: 1, duplicate: false })
    const message = await socket.take((f) => f.type === 'message')
    expect(message).toMatchObject({
      channel: 'chat:rest',
      data: { text: 'from rest' },
      offset: 1,
      messageId: ack.messageId,
      clientId: 'dev-user',
    })
    const wsAck = await socket.request({
      type: 'publish',
      channel: 'chat:rest',
      event: 'message',
      data: 2,
      idempotencyKey: 'shared-key',
    })
    expect(wsAck.offset).toBe(2)
    // The same key over REST finds the socket publish: per-channel dedupe is shared.
    const dup = await post(
      '/realtime/v1/channels/chat:rest/messages',
      { event: 'message', data: 2 },
      { 'Idempotency-Key': 'shared-key' },
    )
    expect(dup.status).toBe(200)
    expect(await dup.json()).toMatchObject({ offset: 2, messageId: wsAck.messageId, duplicate: true })
  })

  it('history with since, presence and the channel list', async () => {
    const { socket, connected } = await subscribed('p', 'room:1')
    await socket.request({ type: 'presence.enter', channel: 'room:1', data: { name: 'P' } })
    for (let i = 1; i <= 4; i++) await post('/realtime/v1/channels/room:1/messages', { event: 'e', data: i })
    const all = (await (await authed(emu(), '/realtime/v1/channels/room:1/messages')).json()) as Frame
    expect(all).toMatchObject({ offset: 4, complete: true })
    expect(all.messages.map((m: Frame) => m.data)).toEqual([1, 2, 3, 4])
    const since = (await (
      await authed(emu(), `/realtime/v1/channels/room:1/messages?sinceEpoch=${all.epoch}&sinceOffset=2&limit=1`)
    ).json()) as Frame
    expect(since.messages.map((m: Frame) => m.offset)).toEqual([3])
    const otherEpoch = (await (
      await authed(emu(), '/realtime/v1/channels/room:1/messages?sinceEpoch=ep_x&sinceOffset=2')
    ).json()) as Frame
    expect(otherEpoch).toMatchObject({ messages: [], complete: false })

    const presence = (await (await authed(emu(), '/realtime/v1/channels/room:1/presence')).json()) as Frame
    expect(presence.members).toEqual([{ clientId: 'p', connectionId: connected.connectionId, data: { name: 'P' } }])

    await post('/realtime/v1/channels/room:2/messages', { event: 'e' })
    const page1 = (await (await authed(emu(), '/realtime/v1/channels?prefix=room:&limit=1')).json()) as Frame
    expect(page1.data).toEqual([{ name: 'room:1', epoch: all.epoch, offset: 4, subscribers: 1, members: 1 }])
    const page2 = (await (
      await authed(emu(), `/realtime/v1/channels?prefix=room:&limit=1&cursor=${page1.nextCursor}`)
    ).json()) as Frame
    expect(page2).toMatchObject({ data: [{ name: 'room:2', offset: 1, subscribers: 0, members: 0 }], nextCursor: null })
  })

  it('capabilities per channel, and input errors', async () => {
    const token = await emu().mintToken({ scope: ['realtime:publish:ok:*'] })
    expect(
      (await call(emu(), '/realtime/v1/channels/ok:1/messages', { token, method: 'POST', json: { event: 'e' } }))
        .status,
    ).toBe(201)
    await expectError(
      await call(emu(), '/realtime/v1/channels/no/messages', { token, method: 'POST', json: { event: 'e' } }),
      403,
      'insufficient_scope',
    )
    await expectError(await call(emu(), '/realtime/v1/channels/ok:1/messages', { token }), 403, 'insufficient_scope')
    await expectError(await call(emu(), '/realtime/v1/channels', { token }), 403, 'insufficient_scope')
    await expectError(await post('/realtime/v1/channels/bad%20name/messages', { event: 'e' }), 400, 'invalid_channel')
    await expectError(await post('/realtime/v1/channels/x/messages', { data: 1 }), 400, 'invalid_parameter')
    await expectError(await authed(emu(), '/realtime/v1/channels/x/messages?sinceOffset=1'), 400, 'invalid_parameter')
    await expectError(await authed(emu(), '/realtime/v1/channels/x/messages?limit=5000'), 400, 'invalid_parameter')
    await expectError(await authed(emu(), '/realtime/v1/channels?cursor=%%%'), 400, 'invalid_cursor')
    await expectError(
      await post('/realtime/v1/channels/x/messages', { event: 'e', data: 'x'.repeat(70_000) }),
      413,
      'message_too_large',
    )
  })
})

describe('webhooks', () => {
  const events: { appId: string; event: WebhookEvent }[] = []
  const webhooks: WebhookModule = {
    dispatch: (appId, event) => void events.push({ appId, event }),
    controls: {} as WebhookModule['controls'],
    reset() {},
    close() {},
  }
  const module = createRealtimeModule(
    { seed: 1, webhooks, apps: new Map([[DEV_APP.appId, DEV_APP]]) },
    { heartbeatMs: 1000 },
  )
  let server: Server | undefined
  afterAll(() => {
    module.close?.()
    server?.close()
  })

  it('channel.occupied, message.published and channel.vacated', async () => {
    server = createServer((_req, res) => res.end())
    module.attach?.(server)
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    const fake = { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` } as Emulator
    const { socket } = await TestSocket.connect(fake, await emu().mintToken({ subject: 'hooks' }))
    await socket.request({ type: 'subscribe', channels: [{ channel: 'hook:1' }] })
    await socket.request({ type: 'publish', channel: 'hook:1', event: 'e', data: 1, idempotencyKey: 'h' })
    await socket.request({ type: 'unsubscribe', channels: ['hook:1'] })
    expect(events.map((e) => [e.appId, e.event.type])).toEqual([
      ['app_dev', 'channel.occupied'],
      ['app_dev', 'message.published'],
      ['app_dev', 'channel.vacated'],
    ])
    expect(events[1]?.event.data).toMatchObject({ channel: 'hook:1', offset: 1, clientId: 'hooks', data: 1 })
    socket.close()
  })
})
