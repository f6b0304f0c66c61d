// A customer's typing reaches agents (setMyTyping): the service enters a member of its own on
// the resource-presence channel (`customer:<id>`), which leaves on `typing: false` and by itself
// after the TTL (short here: an emulator option); it changes at most once per conversation per
// interval; an agent may not pose as such a member; the customer never hears their own typing.
import {
  CUSTOMER_TYPING_INTERVAL_MS,
  customerChannelName,
  customerPresenceClientId,
  resourcePresenceChannel,
} from '@tandem/contract'
import { afterEach, describe, expect, it } from 'vitest'
import { during, slack, waitUntil } from '../../../../../test/utils/wait.js'
import { call, expectError, useEmulator } from '../helpers.js'
import { TestSocket, type Frame } from '../realtime-helpers.js'
import { agentToken, customerToken } from './helpers.js'

const TTL = 600
const emu = useEmulator({
  plans: { support: false, realtime: false },
  customerPlan: false,
  support: { customerTypingTtlMs: TTL },
})
const PRESENCE = resourcePresenceChannel('support/conversations')
const sockets: TestSocket[] = []
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
})

async function listen(token: string, channel: string): Promise<TestSocket> {
  const { socket } = await TestSocket.connect(emu(), token)
  sockets.push(socket)
  await socket.request({ type: 'subscribe', channels: [{ channel }] })
  return socket
}
const presenceEvent = (socket: TestSocket, action: string) =>
  socket.take((f) => f.type === 'presence.event' && f.action === action, slack(3000))

async function customerWithConversation(id: string, name = 'Ada Lovelace') {
  const token = await customerToken(emu(), id, name)
  const res = await call(emu(), '/support/v1/me/conversations', { method: 'POST', token, json: { text: 'Hello' } })
  return { token, conversation: ((await res.json()) as { id: string }).id }
}
const typing = (token: string, conversation: string, on: boolean) =>
  call(emu(), `/support/v1/me/conversations/${conversation}/typing`, { method: 'POST', token, json: { typing: on } })

describe('a customer typing', () => {
  it('shows to agents on the presence channel as the service’s member, and leaves on stop', async () => {
    const { token, conversation } = await customerWithConversation('cus_typist')
    const desk = await listen(await agentToken(emu()), PRESENCE)
    expect((await typing(token, conversation, true)).status).toBe(204)
    const entered = await presenceEvent(desk, 'enter')
    expect(entered.member).toMatchObject({
      clientId: customerPresenceClientId('cus_typist'),
      data: { name: 'Ada Lovelace', viewing: [], typing: [conversation], locks: [] },
    })
    // The REST view of the channel lists it too.
    const members = (await (
      await call(emu(), `/realtime/v1/channels/${encodeURIComponent(PRESENCE)}/presence`, {
        token: await agentToken(emu()),
      })
    ).json()) as { members: { clientId: string }[] }
    expect(members.members.map((m) => m.clientId)).toContain('customer:cus_typist')
    await during(CUSTOMER_TYPING_INTERVAL_MS + 50) // past the interval: the stop goes at once
    expect((await typing(token, conversation, false)).status).toBe(204)
    expect((await presenceEvent(desk, 'leave')).member).toMatchObject({ clientId: 'customer:cus_typist' })
  })

  it('lapses by itself after the TTL unless renewed', async () => {
    const { token, conversation } = await customerWithConversation('cus_lapse')
    const desk = await listen(await agentToken(emu()), PRESENCE)
    await typing(token, conversation, true)
    await presenceEvent(desk, 'enter')
    const entered = Date.now()
    // Renewals within the TTL change nothing anyone sees.
    for (let i = 0; i < 2; i++) {
      await during(TTL / 3)
      await typing(token, conversation, true)
    }
    expect(desk.drain('presence.event')).toEqual([])
    const left = await presenceEvent(desk, 'leave')
    expect(left.member).toMatchObject({ clientId: 'customer:cus_lapse' })
    // It lapsed after the last renewal, not after the first `true`.
    expect(Date.now() - entered).toBeGreaterThanOrEqual(TTL + (2 * TTL) / 3)
  })

  it('changes the member at most once per conversation per interval; the latest state wins', async () => {
    const { token, conversation } = await customerWithConversation('cus_flicker')
    const desk = await listen(await agentToken(emu()), PRESENCE)
    const started = Date.now()
    for (const on of [true, false, true, false, true, false]) await typing(token, conversation, on)
    const took = Date.now() - started
    // The first change at once; the rest wait for the interval's end, and then only the latest shows.
    const left = () => desk.inbox.some((f) => f.type === 'presence.event' && f.action === 'leave')
    await waitUntil(left, { timeoutMs: slack(5000), what: 'the member to leave' })
    await during(CUSTOMER_TYPING_INTERVAL_MS + 100)
    const events = desk.drain('presence.event')
    expect(events.map((e) => e.action).at(-1)).toBe('leave')
    // At most one change per interval the six requests spanned (so two when they fit in one).
    expect(events.length).toBeLessThanOrEqual(Math.floor(took / CUSTOMER_TYPING_INTERVAL_MS) + 2)
  })

  it('lists every conversation the customer types in, in one member', async () => {
    const token = await customerToken(emu(), 'cus_two_tabs')
    const start = async () =>
      (
        (await (
          await call(emu(), '/support/v1/me/conversations', { method: 'POST', token, json: { text: 'Hi' } })
        ).json()) as {
          id: string
        }
      ).id
    const [a, b] = [await start(), await start()]
    const desk = await listen(await agentToken(emu()), PRESENCE)
    await typing(token, a, true)
    await presenceEvent(desk, 'enter')
    await typing(token, b, true)
    expect(((await presenceEvent(desk, 'update')).member as Frame).data).toMatchObject({ typing: [a, b] })
  })

  it("refuses another customer's conversation (404), and never echoes typing on the customer's channel", async () => {
    const ada = await customerWithConversation('cus_echo')
    const bob = await customerToken(emu(), 'cus_not_echo')
    await expectError(await typing(bob, ada.conversation, true), 404, 'not_found')
    const tab = await listen(ada.token, customerChannelName('cus_echo'))
    const desk = await listen(await agentToken(emu()), PRESENCE)
    await typing(ada.token, ada.conversation, true)
    await presenceEvent(desk, 'enter')
    await during(CUSTOMER_TYPING_INTERVAL_MS / 2)
    expect(tab.inbox.filter((f) => f.type === 'message' && f.event === 'typing')).toEqual([])
  })

  it('refuses an agent whose clientId poses as a customer member', async () => {
    const impostor = await emu().mintToken({ subject: 'customer:cus_typist', scope: ['support', 'realtime'] })
    const socket = await listen(impostor, PRESENCE)
    const data = { name: null, viewing: [], typing: [], locks: [] }
    const refused = await socket.request({ type: 'presence.enter', channel: PRESENCE, data })
    expect(refused.type).toBe('error')
    expect((refused.error as { code: string }).code).toBe('forbidden')
  })
})
