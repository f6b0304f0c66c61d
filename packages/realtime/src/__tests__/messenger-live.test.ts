// The messenger's live side (`messenger(client, { realtime })` of @tandem/core/messenger) on real
// sockets against the emulator: an agent's reply reaches the customer's stores with no request,
// two tabs agree on unread counts, pushes and loads never show a message twice, a malformed push
// is dropped and reported, a discontinuity refetches, shutdown lets the channel go.
import { createClient, DEFAULTS, type RequestEvent, type TandemClient, type TandemError } from '@tandem/core'
import { messenger, type Messenger } from '@tandem/core/messenger'
import { customerChannelName } from '@tandem/contract'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { until, waitUntil } from '../../../../test/utils/wait.js'
import { createRealtime, type Realtime } from '../index.js'
import { useEmulator } from './helpers.js'

const emu = useEmulator({ plans: { support: { limit: 100_000 }, realtime: { limit: 100_000 } } })

const open: (() => void)[] = []
afterEach(() => open.splice(0).forEach((close) => close()))

function clientOf(subject: string, scope: string[]): { client: TandemClient; requests: RequestEvent[] } {
  const e = emu()
  const auth = { fetchToken: async () => ({ token: await e.mintToken({ subject, scope }), expiresIn: 600 }) }
  const client = createClient({ baseUrl: e.url, auth, services: { support: { rateLimit: false } } })
  const requests: RequestEvent[] = []
  client.on('request', (r) => void requests.push(r))
  return { client, requests }
}

let customers = 0
/** A new customer id per test: the emulator is the file's. */
const newCustomer = () => `cus_live_${++customers}`

/** A customer's tab: its own client, realtime connection and messenger. */
function tab(customerId: string) {
  const { client, requests } = clientOf(customerId, ['support:customer'])
  const rt = createRealtime({ client }, { WebSocket, backoff: { baseMs: 20, capMs: 100 } })
  const desk = messenger(client, { realtime: rt })
  const errors: TandemError[] = []
  desk.on('error', (e) => void errors.push(e))
  open.push(
    () => desk.shutdown(),
    () => rt.close(),
  )
  const gets = (suffix: string) => requests.filter((r) => r.method === 'GET' && r.path.endsWith(suffix)).length
  return { client, rt, desk, errors, requests, gets }
}

const agent = () => clientOf('agent_1', ['support', 'realtime']).client

/** Resolves once `store`'s snapshot passes `check`. */
const settled = <T>(
  store: { subscribe: (l: () => void) => () => void; getSnapshot: () => T },
  check: (s: T) => boolean,
  what: string,
) => until(store.subscribe, () => check(store.getSnapshot()), 5_000, what)

const subscribed = (rt: Realtime, customerId: string) =>
  waitUntil(() => rt.channel(customerChannelName(customerId)).state === 'subscribed', { what: 'the customer channel' })

/** Holds `desk`'s stores, loaded, live, and past the refetch that follows the first subscription. */
async function live(t: ReturnType<typeof tab>, customerId: string, conversationId?: string) {
  const thread = conversationId === undefined ? undefined : t.desk.thread(conversationId)
  const list = t.desk.conversationList()
  const offs = [t.desk.unread.subscribe(() => {}), list.subscribe(() => {}), thread?.subscribe(() => {})]
  open.push(() => offs.forEach((off) => off?.()))
  await subscribed(t.rt, customerId)
  await waitUntil(() => t.gets('/v1/me/conversations') >= 2, { what: 'the load and the refetch after subscribing' })
  if (thread) await waitUntil(() => t.gets('/messages') >= 2, { what: 'the thread’s load and refetch' })
  // The thread's conversation item is refetched too: a test that counts requests from here on must
  // not count that one (it came after the two above in 1 run of 3).
  if (thread)
    await waitUntil(() => t.gets(`/v1/me/conversations/${conversationId}`) >= 2, {
      what: 'the conversation’s load and refetch',
    })
  await settled(list, (s) => s.status === 'ready', 'the list')
  if (thread) await settled(thread, (s) => s.status === 'ready', 'the thread')
  return { list, thread: thread! }
}

describe('messenger, live', () => {
  it('an agent’s reply reaches the customer’s thread and unread count with no request', async () => {
    const id = newCustomer()
    const t = tab(id)
    const c = await t.desk.conversations.start({ text: 'Where is my invoice?' })
    const { thread, list } = await live(t, id, c.id)
    const sent = t.requests.length

    const heard: string[] = []
    t.desk.on('message', (m) => void heard.push(m.text))
    await agent().support.conversations.reply(c.id, { text: 'Attached here.' })
    await settled(thread, (s) => s.messages.some((m) => m.text === 'Attached here.'), 'the reply in the thread')
    await settled(t.desk.unread, (s) => s.total === 1, 'one unread')
    expect(t.desk.unread.getSnapshot().byConversation.get(c.id)).toBe(1)
    expect(list.getSnapshot().conversations[0]).toMatchObject({ id: c.id, unreadCount: 1 })
    expect(heard).toEqual(['Attached here.'])
    expect(t.requests.length).toBe(sent)
    expect(t.errors).toEqual([])
  })

  it('two tabs of one customer agree on unread counts after a read in one', async () => {
    const id = newCustomer()
    const [one, two] = [tab(id), tab(id)]
    const c = await one.desk.conversations.start({ text: 'Two tabs' })
    await live(one, id)
    await live(two, id)
    const support = agent()
    await support.support.conversations.reply(c.id, { text: 'First' })
    await support.support.conversations.reply(c.id, { text: 'Second' })
    await settled(one.desk.unread, (s) => s.total === 2, 'two unread in tab one')
    await settled(two.desk.unread, (s) => s.total === 2, 'two unread in tab two')

    await one.desk.conversations.markRead(c.id)
    expect(one.desk.unread.getSnapshot().total).toBe(0) // its own answer, at once
    await settled(two.desk.unread, (s) => s.total === 0 && s.byConversation.get(c.id) === 0, 'the read in tab two')
  })

  it('a push and a load that race show each message once', async () => {
    const id = newCustomer()
    const t = tab(id)
    const c = await t.desk.conversations.start({ text: 'Race' })
    const { thread } = await live(t, id, c.id)
    const support = agent()
    for (let i = 0; i < 5; i++) {
      await Promise.all([support.support.conversations.reply(c.id, { text: `Reply ${i}` }), thread.refresh()])
      await thread.refresh()
    }
    await settled(thread, (s) => s.messages.length === 6, 'six messages')
    // The same message pushed again (a replay) changes nothing.
    const last = thread.getSnapshot().messages.at(-1)!
    emu().realtime.publish(customerChannelName(id), 'message', last)
    await thread.refresh()
    const ids = thread.getSnapshot().messages.map((m) => m.id)
    expect(new Set(ids).size).toBe(6)
    expect(thread.getSnapshot().messages.map((m) => m.text)).toEqual([
      'Race',
      ...[0, 1, 2, 3, 4].map((i) => `Reply ${i}`),
    ])
  })

  it('typing shows the agent’s name until their message; a malformed push is dropped and reported', async () => {
    const id = newCustomer()
    const t = tab(id)
    const c = await t.desk.conversations.start({ text: 'Typing?' })
    const { thread } = await live(t, id, c.id)
    const channel = customerChannelName(id)
    emu().realtime.publish(channel, 'typing', { conversationId: c.id, typing: 'yes', name: 'Ana' })
    emu().realtime.publish(channel, 'message', { id: 42, conversationId: c.id })
    emu().realtime.publish(channel, 'typing', { conversationId: c.id, typing: true, name: 'Ana' })
    await settled(thread, (s) => s.agentTyping && s.typingName === 'Ana', 'Ana typing')
    expect(t.errors.map((e) => e.code)).toEqual(['bad_push', 'bad_push'])
    expect(thread.getSnapshot().messages).toHaveLength(1)

    await agent().support.conversations.reply(c.id, { text: 'Here I am' })
    await settled(thread, (s) => !s.agentTyping && s.typingName === null, 'typing cleared by the message')
    expect(thread.getSnapshot().messages.map((m) => m.text)).toEqual(['Typing?', 'Here I am'])
  })

  it('typing clears by itself after DEFAULTS.typingTimeoutMs without a new typing push', async () => {
    const id = newCustomer()
    const t = tab(id)
    const c = await t.desk.conversations.start({ text: 'Anyone?' })
    const { thread } = await live(t, id, c.id)
    // Only the timeouts are fake: the socket's frames are events, and the waits keep real timers.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    emu().realtime.publish(customerChannelName(id), 'typing', { conversationId: c.id, typing: true, name: null })
    await settled(thread, (s) => s.agentTyping, 'typing')
    expect(thread.getSnapshot().typingName).toBeNull() // an agent without a name
    vi.advanceTimersByTime(DEFAULTS.typingTimeoutMs - 1)
    expect(thread.getSnapshot().agentTyping).toBe(true)
    vi.advanceTimersByTime(1)
    expect(thread.getSnapshot().agentTyping).toBe(false)
    vi.useRealTimers()
  })

  it('a discontinuity refetches what the stores show', async () => {
    const id = newCustomer()
    const t = tab(id)
    const c = await t.desk.conversations.start({ text: 'Lost pushes' })
    const { thread } = await live(t, id, c.id)
    const [lists, threads] = [t.gets('/v1/me/conversations'), t.gets('/messages')]
    emu().realtime.restart({ channel: customerChannelName(id), dropConnections: true })
    await agent().support.conversations.reply(c.id, { text: 'While you were away' })
    await waitUntil(() => t.gets('/v1/me/conversations') > lists && t.gets('/messages') > threads, {
      what: 'the refetch',
    })
    await settled(thread, (s) => s.messages.some((m) => m.text === 'While you were away'), 'the missed reply')
    await settled(t.desk.unread, (s) => s.total === 1, 'its unread count')
    expect(thread.getSnapshot().messages).toHaveLength(2)
  })

  it('shutdown lets the channel go and forgets the customer', async () => {
    const id = newCustomer()
    const t = tab(id)
    await live(t, id)
    const channel = t.rt.channel(customerChannelName(id))
    const desk: Messenger = t.desk
    desk.shutdown()
    await waitUntil(() => channel.state === 'unsubscribed', { what: 'the channel let go' })
    expect(desk.unread.getSnapshot()).toMatchObject({ status: 'error', total: 0, error: { code: 'shut_down' } })
  })
})
