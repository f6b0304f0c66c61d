// The customer side of support over real HTTP and WebSocket: a customer starts a conversation
// that agents see like any other, hears replies and status changes on its channel with an unread
// count every tab agrees on, and hears agents typing through the resource presence relay.
import { CUSTOMER_SCOPE, customerChannelName, resourcePresenceChannel } from '@tandem/contract'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { call, useEmulator } from './helpers.js'
import { TestSocket, type Frame } from './realtime-helpers.js'

const emu = useEmulator({ plans: { maps: false, support: false, realtime: false } })
const sockets: TestSocket[] = []
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
})

let agent = ''
const customer = (id: string) =>
  emu().mintToken({ subject: id, scope: [CUSTOMER_SCOPE], profile: { name: 'Ada Lovelace', email: 'Ada@Example.com' } })
beforeAll(async () => {
  agent = await emu().mintToken({ subject: 'agt_test', scope: ['support', 'realtime'], profile: { name: 'Sam Agent' } })
})

async function json<T>(token: string, path: string, method = 'GET', body?: unknown, key?: string) {
  const res = await call(emu(), `/support/v1${path}`, {
    method,
    token,
    ...(body !== undefined ? { json: body } : {}),
    ...(key ? { headers: { 'Idempotency-Key': key } } : {}),
  })
  return { status: res.status, body: (await res.json()) as T }
}
async function listen(token: string, channel: string): Promise<TestSocket> {
  const { socket } = await TestSocket.connect(emu(), token)
  sockets.push(socket)
  const sub = await socket.request({ type: 'subscribe', channels: [{ channel }] })
  expect((sub.channels[0] as Frame).error).toBeUndefined()
  return socket
}
const event = (socket: TestSocket, name: string) => socket.take((f) => f.type === 'message' && f.event === name)

interface View {
  id: string
  status: string
  unreadCount: number
  messageCount: number
  subject: string
}

describe('a customer', () => {
  it('starts a conversation agents see as any other, and both tabs hear it', async () => {
    const token = await customer('cus_ada')
    const tab = await listen(token, customerChannelName('cus_ada'))
    const live = await listen(agent, 'support:conversations')
    const started = await json<View>(token, '/me/conversations', 'POST', { text: '  My parcel\n has not arrived. ' })
    expect(started.status).toBe(201)
    expect(started.body).toMatchObject({ subject: 'My parcel has not arrived.', status: 'active', unreadCount: 0 })
    expect((await event(tab, 'conversation')).data).toMatchObject({ id: started.body.id, messageCount: 1 })
    expect((await event(tab, 'message')).data).toMatchObject({ author: { type: 'customer', name: 'Ada Lovelace' } })
    const created = await event(live, 'created')
    expect(created.data).toMatchObject({
      item: { id: started.body.id, customer: { id: 'cus_ada', name: 'Ada Lovelace', email: 'ada@example.com' } },
    })
    const mine = await json<{ data: View[] }>(token, '/me/conversations')
    expect(mine.body.data.map((c) => c.id)).toEqual([started.body.id])
  })

  it('counts agent replies as unread until read; every tab hears the count; a note changes nothing', async () => {
    const token = await customer('cus_grace')
    const { body: c } = await json<View>(token, '/me/conversations', 'POST', { text: 'Help', subject: 'Login' })
    const tab = await listen(token, customerChannelName('cus_grace'))
    await json(agent, `/conversations/${c.id}/notes`, 'POST', { text: 'Internal' })
    await json(agent, `/conversations/${c.id}/reply`, 'POST', { text: 'Try again now.', status: 'pending' })
    expect((await event(tab, 'message')).data).toMatchObject({ author: { type: 'agent' }, text: 'Try again now.' })
    expect((await event(tab, 'conversation')).data).toMatchObject({
      unreadCount: 1,
      status: 'pending',
      messageCount: 2,
    })
    expect((await json<{ unreadCount: number }>(token, '/me')).body).toEqual({
      id: 'cus_grace',
      name: 'Ada Lovelace',
      email: 'Ada@Example.com',
      unreadCount: 1,
    })
    const messages = await json<{ data: { text: string }[] }>(token, `/me/conversations/${c.id}/messages`)
    expect(messages.body.data.map((m) => m.text)).toEqual(['Help', 'Try again now.'])
    expect((await json<View>(token, `/me/conversations/${c.id}/read`, 'POST')).body.unreadCount).toBe(0)
    expect((await event(tab, 'conversation')).data).toMatchObject({ unreadCount: 0 })
    expect((await json<{ unreadCount: number }>(token, '/me')).body.unreadCount).toBe(0)
  })

  it('reopens a closed conversation by writing, and hears an agent close it', async () => {
    const token = await customer('cus_linus')
    const { body: c } = await json<View>(token, '/me/conversations', 'POST', { text: 'Hi' })
    const tab = await listen(token, customerChannelName('cus_linus'))
    expect((await json(agent, `/conversations/${c.id}`, 'PATCH', { status: 'closed' })).status).toBe(200)
    expect((await event(tab, 'conversation')).data).toMatchObject({ status: 'closed' })
    const sent = await json<{ author: { type: string } }>(token, `/me/conversations/${c.id}/messages`, 'POST', {
      text: 'Still broken',
    })
    expect(sent).toMatchObject({ status: 201, body: { author: { type: 'customer' } } })
    expect((await event(tab, 'message')).data).toMatchObject({ text: 'Still broken' })
    expect((await event(tab, 'conversation')).data).toMatchObject({ status: 'active', closedAt: null })
  })

  it('a note or a tag moves nothing the customer sees (its list, the times, its channel); agents see it', async () => {
    const token = await customer('cus_7') // the customer of seeded conversation 7, modified in 2024
    const { body: started } = await json<View>(token, '/me/conversations', 'POST', { text: 'Anyone there?' })
    const list = async () => (await call(emu(), '/support/v1/me/conversations', { token })).text()
    const before = await list()
    const [first, seeded] = (JSON.parse(before) as { data: View[] }).data
    expect(first?.id).toBe(started.id)
    const tab = await listen(token, customerChannelName('cus_7'))
    const path = `/conversations/${seeded?.id ?? ''}`
    const agentBefore = (await json<{ modifiedAt: string }>(agent, path)).body.modifiedAt
    expect((await json(agent, `${path}/notes`, 'POST', { text: 'Internal' })).status).toBe(201)
    expect((await json(agent, path, 'PATCH', { tags: ['vip'] })).status).toBe(200)
    expect(await list()).toBe(before)
    expect((await json<{ modifiedAt: string }>(agent, path)).body.modifiedAt).not.toBe(agentBefore)
    // A reply, which the customer sees, is the first thing its channel hears.
    await json(agent, `/conversations/${started.id}/reply`, 'POST', { text: 'Yes.' })
    expect(await tab.take((f) => f.type === 'message')).toMatchObject({
      event: 'message',
      data: { conversationId: started.id, text: 'Yes.' },
    })
  })

  it("keeps each customer's Idempotency-Keys apart", async () => {
    const [a, b] = [await customer('cus_key_a'), await customer('cus_key_b')]
    const first = await json<View>(a, '/me/conversations', 'POST', { text: 'Same' }, 'same-key')
    const again = await json<View>(a, '/me/conversations', 'POST', { text: 'Same' }, 'same-key')
    const other = await json<View>(b, '/me/conversations', 'POST', { text: 'Same' }, 'same-key')
    expect(again.body.id).toBe(first.body.id)
    expect(other.status).toBe(201)
    expect(other.body.id).not.toBe(first.body.id)
  })

  it("hears an agent start and stop typing (by the agent's verified name), and stop when the agent leaves", async () => {
    const token = await customer('cus_ida')
    const { body: c } = await json<View>(token, '/me/conversations', 'POST', { text: 'Hello?' })
    const tab = await listen(token, customerChannelName('cus_ida'))
    const presence = resourcePresenceChannel('support/conversations')
    const desk = await listen(agent, presence)
    // The name the member writes is a hint: the customer hears the token's profile name.
    const data = (typing: string[]) => ({ name: 'Not Sam', viewing: [c.id], typing, locks: [] })
    expect((await desk.request({ type: 'presence.enter', channel: presence, data: data([c.id]) })).type).toBe('ok')
    expect((await event(tab, 'typing')).data).toEqual({ conversationId: c.id, typing: true, name: 'Sam Agent' })
    expect((await desk.request({ type: 'presence.update', channel: presence, data: data([]) })).type).toBe('ok')
    expect((await event(tab, 'typing')).data).toEqual({ conversationId: c.id, typing: false, name: 'Sam Agent' })
    await desk.request({ type: 'presence.update', channel: presence, data: data([c.id]) })
    expect((await event(tab, 'typing')).data).toMatchObject({ typing: true })
    await desk.request({ type: 'presence.leave', channel: presence })
    expect((await event(tab, 'typing')).data).toMatchObject({ typing: false })
  })

  it('hears "stopped" only when the last of two typing agents stops', async () => {
    const token = await customer('cus_two')
    const { body: c } = await json<View>(token, '/me/conversations', 'POST', { text: 'Hello?' })
    const tab = await listen(token, customerChannelName('cus_two'))
    const presence = resourcePresenceChannel('support/conversations')
    const other = await emu().mintToken({
      subject: 'agt_kim',
      scope: ['support', 'realtime'],
      profile: { name: 'Kim' },
    })
    const [sam, kim] = [await listen(agent, presence), await listen(other, presence)]
    const data = (typing: string[]) => ({ name: null, viewing: [c.id], typing, locks: [] })
    await sam.request({ type: 'presence.enter', channel: presence, data: data([c.id]) })
    expect((await event(tab, 'typing')).data).toEqual({ conversationId: c.id, typing: true, name: 'Sam Agent' })
    await kim.request({ type: 'presence.enter', channel: presence, data: data([c.id]) })
    await sam.request({ type: 'presence.update', channel: presence, data: data([]) })
    // Kim still types: what the customer hears next (once the second's interval ends) says so.
    expect((await event(tab, 'typing')).data).toEqual({ conversationId: c.id, typing: true, name: 'Kim' })
    await kim.request({ type: 'presence.leave', channel: presence })
    expect((await event(tab, 'typing')).data).toEqual({ conversationId: c.id, typing: false, name: 'Kim' })
  })
})
