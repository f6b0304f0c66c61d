// "Seen": when a customer marks a conversation read, agents learn where up to (`customerRead`:
// the latest message then), live on the conversations channel, without the conversation moving
// (`modifiedAt` and the list order stay).
import type { Conversation } from '@tandem/contract'
import { afterEach, describe, expect, it } from 'vitest'
import { slack } from '../../../../../test/utils/wait.js'
import { call, useEmulator } from '../helpers.js'
import { TestSocket } from '../realtime-helpers.js'
import { agentToken, customerToken } from './helpers.js'

const emu = useEmulator({ plans: { support: false, realtime: false }, customerPlan: false })
const sockets: TestSocket[] = []
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
})

describe("the customer's read position", () => {
  it('reaches agents live as customerRead when the customer marks it read; nothing moves', async () => {
    const agent = await agentToken(emu())
    const token = await customerToken(emu(), 'cus_seen')
    const started = await call(emu(), '/support/v1/me/conversations', { method: 'POST', token, json: { text: 'Hi' } })
    const { id } = (await started.json()) as { id: string }
    const reply = await call(emu(), `/support/v1/conversations/${id}/reply`, {
      method: 'POST',
      token: agent,
      json: { text: 'Hello! How can I help?' },
    })
    const replied = (await reply.json()) as { id: string }
    // A note after the reply is not something the customer reads.
    await call(emu(), `/support/v1/conversations/${id}/notes`, { method: 'POST', token: agent, json: { text: 'vip' } })
    const get = async () =>
      (await (await call(emu(), `/support/v1/conversations/${id}`, { token: agent })).json()) as Conversation
    const before = await get()
    // The customer's own first message is read; the reply is not yet.
    expect(before.customerRead?.threadId).not.toBe(replied.id)
    const list = async () =>
      (
        (await (await call(emu(), '/support/v1/conversations?limit=5', { token: agent })).json()) as {
          data: Conversation[]
        }
      ).data.map((c) => c.id)
    const order = await list()

    const { socket: live } = await TestSocket.connect(emu(), agent)
    sockets.push(live)
    await live.request({ type: 'subscribe', channels: [{ channel: 'support:conversations' }] })
    expect((await call(emu(), `/support/v1/me/conversations/${id}/read`, { method: 'POST', token })).status).toBe(200)
    const pushed = await live.take((f) => f.type === 'message' && f.event === 'updated', slack(3000))
    const item = (pushed.data as { item: Conversation }).item
    expect(item.id).toBe(id)
    expect(item.customerRead).toEqual({ threadId: replied.id, at: expect.any(String) as string })
    expect(item.modifiedAt).toBe(before.modifiedAt)
    const after = await get()
    expect(after.customerRead?.threadId).toBe(replied.id)
    expect(after.modifiedAt).toBe(before.modifiedAt)
    expect(await list()).toEqual(order)
    // Read again with nothing new: nothing to tell.
    await call(emu(), `/support/v1/me/conversations/${id}/read`, { method: 'POST', token })
    expect((await get()).customerRead).toEqual(after.customerRead)
  })

  it('moves to the customer’s own message when they write (they read all before it), not to a note', async () => {
    const agent = await agentToken(emu())
    const token = await customerToken(emu(), 'cus_writes')
    const started = await call(emu(), '/support/v1/me/conversations', { method: 'POST', token, json: { text: 'Hi' } })
    const { id } = (await started.json()) as { id: string }
    const get = async () =>
      (await (await call(emu(), `/support/v1/conversations/${id}`, { token: agent })).json()) as Conversation
    const first = (
      (await (await call(emu(), `/support/v1/me/conversations/${id}/messages`, { token })).json()) as {
        data: { id: string }[]
      }
    ).data[0]?.id
    expect((await get()).customerRead?.threadId).toBe(first)
    await call(emu(), `/support/v1/conversations/${id}/reply`, { method: 'POST', token: agent, json: { text: 'Yes?' } })
    const mine = await call(emu(), `/support/v1/me/conversations/${id}/messages`, {
      method: 'POST',
      token,
      json: { text: 'It is broken' },
    })
    const written = (await mine.json()) as { id: string }
    expect((await get()).customerRead?.threadId).toBe(written.id)
    await call(emu(), `/support/v1/conversations/${id}/notes`, { method: 'POST', token: agent, json: { text: 'vip' } })
    expect((await get()).customerRead?.threadId).toBe(written.id)
  })
})
