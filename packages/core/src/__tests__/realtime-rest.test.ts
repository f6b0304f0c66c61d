import { describe, expect, it } from 'vitest'
import { isAuthError, isValidationError, type ChannelInfo } from '../index.js'
import { until } from '../../../../test/utils/wait.js'
import { setup } from './helpers.js'

describe('client.realtime (REST)', () => {
  it('publish → history → presence → channels, against the emulator', async () => {
    const { client } = await setup()
    const first = await client.realtime.publish('chat:lobby', 'message', { text: 'hello' })
    expect(first).toMatchObject({ offset: 1, duplicate: false })
    expect(first.epoch).toMatch(/^ep_/)
    expect(first.messageId).toMatch(/^msg_/)
    await client.realtime.publish('chat:lobby', 'message', { text: 'again' })

    const all = await client.realtime.history('chat:lobby')
    expect(all).toMatchObject({ epoch: first.epoch, offset: 2, complete: true })
    expect(all.messages.map((m) => m.data)).toEqual([{ text: 'hello' }, { text: 'again' }])
    expect(all.messages[0]).toMatchObject({ channel: 'chat:lobby', event: 'message', clientId: 'dev-user' })
    const after = await client.realtime.history('chat:lobby', { since: { epoch: first.epoch, offset: 1 }, limit: 10 })
    expect(after.messages.map((m) => m.offset)).toEqual([2])
    const stale = await client.realtime.history('chat:lobby', { since: { epoch: 'ep_old', offset: 1 } })
    expect(stale).toMatchObject({ complete: false, messages: [] })

    expect(await client.realtime.presence('chat:lobby')).toEqual({ members: [] })

    for (const name of ['room:a', 'room:b', 'room:c']) await client.realtime.publish(name, 'e', null)
    const page = await client.realtime.channels({ prefix: 'room:', limit: 2 })
    expect(page.data.map((c) => c.name)).toEqual(['room:a', 'room:b'])
    expect(page.nextCursor).toEqual(expect.any(String))
    const names: string[] = []
    for await (const channel of client.realtime.channels({ prefix: 'room:', limit: 2 }) as AsyncIterable<ChannelInfo>)
      names.push(channel.name)
    expect(names).toEqual(['room:a', 'room:b', 'room:c'])
  })

  it('the same idempotencyKey stores once (a repeat gets the first result)', async () => {
    const { client } = await setup()
    const a = await client.realtime.publish('orders', 'created', { id: 1 }, { idempotencyKey: 'order-1' })
    const b = await client.realtime.publish('orders', 'created', { id: 1 }, { idempotencyKey: 'order-1' })
    expect(b.messageId).toBe(a.messageId)
    expect((await client.realtime.history('orders')).messages).toHaveLength(1)
  })

  it('reaches a socket subscriber through the shared hub', async () => {
    const { emu, client } = await setup()
    const { WebSocket } = await import('ws')
    const ws = new WebSocket(`${emu.url.replace('http', 'ws')}/realtime/v1/ws`)
    const frames: Record<string, unknown>[] = []
    ws.on('message', (d) => frames.push(JSON.parse(String(d)) as Record<string, unknown>))
    const onFrame = (cb: () => void) => {
      ws.on('message', cb)
      return () => void ws.off('message', cb)
    }
    /** The first frame of `type`, within the deadline (a frame that never comes fails the test, not hangs it). */
    const next = async (type: string): Promise<Record<string, unknown>> => {
      await until(onFrame, () => frames.some((f) => f.type === type), 5_000, `a ${type} frame`)
      return frames.find((f) => f.type === type)!
    }
    await new Promise((resolve) => ws.once('open', resolve))
    ws.send(JSON.stringify({ type: 'connect', id: 1, token: await emu.mintToken() }))
    await next('connected')
    ws.send(JSON.stringify({ type: 'subscribe', id: 2, channels: [{ channel: 'live' }] }))
    await next('subscribed')
    const ack = await client.realtime.publish('live', 'ping', 1)
    expect(await next('message')).toMatchObject({ offset: ack.offset, messageId: ack.messageId, data: 1 })
    ws.close()
  })

  it('rejects bad input locally with a ValidationError naming the field (never a synchronous throw)', async () => {
    const { client, emu } = await setup()
    const cases: [() => Promise<unknown>, string][] = [
      [() => client.realtime.publish('bad name', 'e', 1), 'channel'],
      [() => client.realtime.publish('..', 'e', 1), 'channel'],
      [() => client.realtime.publish('ok', '', 1), 'event'],
      [() => client.realtime.publish('ok', 'e', 1, { idempotencyKey: 'bad key\n' }), 'idempotencyKey'],
      [() => client.realtime.history('ok', { limit: 0 }), 'limit'],
      [() => client.realtime.history('ok', { since: { epoch: 'ep', offset: -1 } }), 'since.offset'],
      [() => client.realtime.history('ok', { since: 'x' as never }), 'since'],
      [() => client.realtime.presence(42 as never), 'channel'],
      [() => client.realtime.channels({ limit: 101 }), 'limit'],
      [() => client.realtime.channels({ prefix: 'x'.repeat(201) }), 'prefix'],
    ]
    for (const [call, field] of cases) {
      let promise: Promise<unknown> | undefined
      expect(() => (promise = call())).not.toThrow()
      const error = await promise?.catch((e: unknown) => e)
      expect(isValidationError(error), field).toBe(true)
      expect((error as { field: string }).field).toBe(field)
    }
    expect(emu.stats.byService.realtime).toBe(0)
  })

  it('a token without the channel capability → AuthError (403)', async () => {
    const { client } = await setup({
      client: (emu) => ({
        auth: {
          fetchToken: async () => ({
            token: await emu.mintToken({ scope: ['realtime:publish:own:*'] }),
            expiresIn: 600,
          }),
        },
      }),
    })
    await expect(client.realtime.publish('own:1', 'e', 1)).resolves.toMatchObject({ offset: 1 })
    const error = await client.realtime.publish('other', 'e', 1).catch((e: unknown) => e)
    expect(isAuthError(error)).toBe(true)
    expect(error).toMatchObject({ status: 403, code: 'insufficient_scope' })
  })
})
