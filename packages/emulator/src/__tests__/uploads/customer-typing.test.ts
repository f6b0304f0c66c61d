// A customer's typing reaches agents (setMyTyping): the service enters a member of its own on
// the resource-presence channel (`customer:<id>`), which leaves on `typing: false` and by itself
// after the TTL (an emulator option: far longer than any wait here, so only a stop can make it
// leave, but for the lapse test's own emulator); it changes at most once per conversation per
// interval; its list is capped; an agent may not pose as such a member; the customer never hears
// their own typing.
import {
  CUSTOMER_TYPING_INTERVAL_MS,
  MAX_PRESENCE_RESOURCES,
  customerChannelName,
  customerPresenceClientId,
  resourcePresenceChannel,
} from '@tandem/contract'
import { afterEach, describe, expect, it } from 'vitest'
import { during, slack, waitUntil } from '../../../../../test/utils/wait.js'
import { call, expectError, useEmulator } from '../helpers.js'
import { TestSocket, type Frame } from '../realtime-helpers.js'
import { agentToken, customerToken } from './helpers.js'

const plans = { plans: { support: false, realtime: false }, customerPlan: false } as const
const emu = useEmulator({ ...plans, support: { customerTypingTtlMs: 600_000 } })
// Long enough that two renewals a tenth of it apart come in time on a loaded machine.
const TTL = 3000
const lapsing = useEmulator({ ...plans, support: { customerTypingTtlMs: TTL } })
const PRESENCE = resourcePresenceChannel('support/conversations')
const sockets: TestSocket[] = []
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
})

async function listen(token: string, channel: string, on = emu()): Promise<TestSocket> {
  const { socket } = await TestSocket.connect(on, token)
  sockets.push(socket)
  await socket.request({ type: 'subscribe', channels: [{ channel }] })
  return socket
}
const presenceEvent = (socket: TestSocket, action: string) => socketTake(socket, action, 0)
/** The next presence event with `action`, waiting up to `after` ms plus the usual slack. */
const socketTake = (socket: TestSocket, action: string, after: number) =>
  socket.take((f) => f.type === 'presence.event' && f.action === action, after + slack(3000))

async function customerWithConversation(id: string, name = 'Ada Lovelace', on = emu()) {
  const token = await customerToken(on, id, name)
  const res = await call(on, '/support/v1/me/conversations', { method: 'POST', token, json: { text: 'Hello' } })
  return { token, conversation: ((await res.json()) as { id: string }).id }
}
const typing = (token: string, conversation: string, typing: boolean, on = emu()) =>
  call(on, `/support/v1/me/conversations/${conversation}/typing`, { method: 'POST', token, json: { typing } })

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
    const { token, conversation } = await customerWithConversation('cus_lapse', 'Ada Lovelace', lapsing())
    const desk = await listen(await agentToken(lapsing()), PRESENCE, lapsing())
    await typing(token, conversation, true, lapsing())
    await presenceEvent(desk, 'enter')
    // Renewals change nothing anyone sees.
    let renewed = 0
    for (let i = 0; i < 2; i++) {
      await during(TTL / 10)
      renewed = Date.now()
      await typing(token, conversation, true, lapsing())
    }
    const left = await socketTake(desk, 'leave', TTL)
    expect(left.member).toMatchObject({ clientId: 'customer:cus_lapse' })
    expect(desk.drain('presence.event')).toEqual([])
    // It lapsed a TTL after the last renewal (sent at `renewed` or later), not after the first `true`.
    expect(Date.now() - renewed).toBeGreaterThanOrEqual(TTL)
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

  it(`shows at most MAX_PRESENCE_RESOURCES (${MAX_PRESENCE_RESOURCES}) conversations: the oldest goes`, async () => {
    const token = await customerToken(emu(), 'cus_many')
    const ids: string[] = []
    for (let i = 0; i <= MAX_PRESENCE_RESOURCES; i++) {
      const res = await call(emu(), '/support/v1/me/conversations', { method: 'POST', token, json: { text: `#${i}` } })
      ids.push(((await res.json()) as { id: string }).id)
    }
    const desk = await listen(await agentToken(emu()), PRESENCE)
    for (const id of ids) expect((await typing(token, id, true)).status).toBe(204)
    // Each conversation's first change goes at once (the interval is per conversation).
    const last = ids.at(-1)!
    const shown = await desk.take(
      (f) => f.type === 'presence.event' && ((f.member as Frame).data as { typing: string[] }).typing.includes(last),
      slack(5000),
    )
    expect(((shown.member as Frame).data as { typing: string[] }).typing).toEqual(ids.slice(1))
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
