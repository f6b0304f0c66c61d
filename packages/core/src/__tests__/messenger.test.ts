// The customer side of support (`messenger(client)`), over real HTTP against the emulator, with
// both client styles: what a customer token reaches, what it may not, and what never leaves the
// client. The live side (a realtime connection) is tested in @tandem/realtime (messenger-live.test.ts).
import type { Emulator } from '@tandem/emulator'
import { describe, expect, it } from 'vitest'
import { until } from '../../../../test/utils/wait.js'
import { messenger } from '../entries/messenger.js'
import { isApiError, isTandemError, isValidationError, type RequestEvent, type TandemError } from '../index.js'
import { createClientOfStyle } from './client-style.js'
import { setup } from './helpers.js'

/** A client of `emu` whose token is `subject`'s with `scope`, each of its requests counted. */
function clientOf(emu: Emulator, subject: string, scope: string[]) {
  const { client } = createClientOfStyle({
    baseUrl: emu.url,
    auth: { fetchToken: async () => ({ token: await emu.mintToken({ subject, scope }), expiresIn: 600 }) },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  })
  const requests: RequestEvent[] = []
  client.on('request', (r) => void requests.push(r))
  return { emu, client, requests }
}

/** A customer's client; on a new emulator unless given one. */
const customer = async (subject = 'cus_alice', emu?: Emulator) =>
  clientOf(emu ?? (await setup()).emu, subject, ['support:customer'])
const agent = (emu: Emulator) => clientOf(emu, 'agent_1', ['support', 'realtime']).client

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

async function rejection(p: Promise<unknown>): Promise<TandemError> {
  const e: unknown = await p.then(
    () => undefined,
    (x: unknown) => x,
  )
  if (!isTandemError(e)) throw new Error(`expected a TandemError, got ${String(e)}`)
  return e
}

describe('messenger(client): the customer’s REST calls', () => {
  it('starts, lists, replies, reads an agent’s answer and marks it read', async () => {
    const { emu, client } = await customer()
    const desk = messenger(client)
    expect(await desk.me()).toMatchObject({ id: 'cus_alice', unreadCount: 0 })
    expect((await desk.conversations.list()).data).toEqual([])

    const started = await desk.conversations.start({ text: 'My export is empty.', subject: 'Export' })
    expect(started).toMatchObject({ id: expect.stringMatching(/^cnv_/), subject: 'Export', unreadCount: 0 })
    const mine = await desk.conversations.reply(started.id, { text: 'Still empty today.' })
    expect(mine).toMatchObject({ conversationId: started.id, author: { type: 'customer' }, text: 'Still empty today.' })

    const support = agent(emu)
    await support.support.conversations.reply(started.id, { text: 'Fixed: try again.' })
    const read = await desk.conversations.get(started.id)
    expect(read.unreadCount).toBe(1)
    expect((await desk.me()).unreadCount).toBe(1)
    const messages = await all(desk.conversations.messages(started.id, { limit: 1 }))
    expect(messages.map((m) => [m.author.type, m.text])).toEqual([
      ['customer', 'My export is empty.'],
      ['customer', 'Still empty today.'],
      ['agent', 'Fixed: try again.'],
    ])

    expect((await desk.conversations.markRead(started.id)).unreadCount).toBe(0)
    expect((await desk.me()).unreadCount).toBe(0)
    expect((await desk.conversations.list()).data.map((c) => c.id)).toEqual([started.id])
  })

  it('searches and reads the published docs only', async () => {
    const { client } = await customer()
    const desk = messenger(client)
    const found = await all(desk.docs.search({ query: 'a', limit: 100 }))
    expect(found.length).toBeGreaterThan(0)
    expect(found.every((a) => a.published)).toBe(true)
    const first = found[0]!
    expect(await desk.docs.get(first.id)).toMatchObject({ id: first.id, title: first.title, published: true })
  })

  it('another customer’s conversation is not found, whatever the call', async () => {
    const { emu, client: alice } = await customer('cus_alice')
    const { client: bob } = await customer('cus_bob', emu)
    const theirs = await messenger(alice).conversations.start({ text: 'Private question' })
    const desk = messenger(bob)
    for (const call of [
      () => desk.conversations.get(theirs.id),
      () => desk.conversations.messages(theirs.id),
      () => desk.conversations.reply(theirs.id, { text: 'hi' }),
      () => desk.conversations.markRead(theirs.id),
    ]) {
      const e = await rejection(call())
      expect(isApiError(e) && e.status === 404 && e.code === 'not_found', `${e.name} ${e.code}`).toBe(true)
    }
    expect((await desk.conversations.list()).data).toEqual([])
  })

  it('refuses bad input with a ValidationError before any request', async () => {
    const { client, requests } = await customer()
    const desk = messenger(client)
    const bad: (() => Promise<unknown>)[] = [
      () => desk.conversations.start({ text: '' }),
      () => desk.conversations.start({ text: 'x'.repeat(50_001) }),
      () => desk.conversations.start({ text: 'ok', subject: 'x'.repeat(256) }),
      () => desk.conversations.start(null as never),
      () => desk.conversations.reply('cnv_1', { text: '   ' }),
      () => desk.conversations.reply('', { text: 'hi' }),
      () => desk.conversations.markRead('..'),
      () => desk.conversations.get('x'.repeat(300)),
      () => desk.conversations.list({ limit: 0 }),
      () => desk.conversations.messages('cnv_1', { cursor: 5 as never }),
      () => desk.docs.search({ query: '' }),
      () => desk.docs.search({ query: 'x'.repeat(201) }),
      () => desk.docs.get('.'),
    ]
    for (const call of bad) expect(isValidationError(await rejection(call()))).toBe(true)
    expect(() => desk.thread('')).toThrow(expect.objectContaining({ code: 'validation_error' }) as Error)
    expect(() => desk.on('nope' as never, () => {})).toThrow(expect.objectContaining({ field: 'event' }) as Error)
    expect(() => messenger(client, { realtime: {} as never })).toThrow(
      expect.objectContaining({ field: 'realtime' }) as Error,
    )
    expect(() => desk.helpSearch({ limit: 0 })).toThrow(expect.objectContaining({ field: 'limit' }) as Error)
    expect(() => desk.helpSearch({ debounceMs: -1 })).toThrow(expect.objectContaining({ field: 'debounceMs' }) as Error)
    expect(() => messenger({} as never)).toThrow(expect.objectContaining({ field: 'client' }) as Error)
    expect(requests).toEqual([])
  })
})

describe('messenger(client): stores without realtime', () => {
  it('the list, the unread counts and a thread load on first subscribe and show the customer’s own writes', async () => {
    const { emu, client } = await customer()
    const desk = messenger(client)
    const older = await desk.conversations.start({ text: 'First question' })
    const list = desk.conversationList()
    expect(list.getSnapshot().status).toBe('idle')
    const offs = [list.subscribe(() => {}), desk.unread.subscribe(() => {})]
    await until(list.subscribe, () => list.getSnapshot().status === 'ready', 5_000, 'the list')
    expect(list.getSnapshot().conversations.map((c) => c.id)).toEqual([older.id])

    const newer = await desk.conversations.start({ text: 'Second question' })
    expect(list.getSnapshot().conversations.map((c) => c.id)).toEqual([newer.id, older.id]) // the answer, shown at once

    await agent(emu).support.conversations.reply(older.id, { text: 'Answer' })
    await list.refresh()
    expect(list.getSnapshot().conversations[0]?.id).toBe(older.id) // modified last, so first
    expect(desk.unread.getSnapshot()).toMatchObject({ status: 'ready', total: 1 })
    expect(desk.unread.getSnapshot().byConversation.get(older.id)).toBe(1)

    const thread = desk.thread(older.id)
    expect(desk.thread(older.id)).toBe(thread) // one store per id
    offs.push(thread.subscribe(() => {}))
    await until(thread.subscribe, () => thread.getSnapshot().status === 'ready', 5_000, 'the thread')
    expect(thread.getSnapshot().messages.map((m) => m.text)).toEqual(['First question', 'Answer'])
    await desk.conversations.reply(older.id, { text: 'Thanks' })
    expect(thread.getSnapshot().messages.map((m) => m.text)).toEqual(['First question', 'Answer', 'Thanks'])

    await desk.conversations.markRead(older.id)
    expect(desk.unread.getSnapshot().total).toBe(0)
    expect(thread.getSnapshot().conversation?.unreadCount).toBe(0)
    offs.forEach((off) => off())
  })

  it('a thread of another customer’s conversation says not found in its snapshot', async () => {
    const { emu, client: alice } = await customer('cus_alice')
    const { client: bob } = await customer('cus_bob', emu)
    const theirs = await messenger(alice).conversations.start({ text: 'Private' })
    const desk = messenger(bob)
    const errors: TandemError[] = []
    desk.on('error', (e) => void errors.push(e))
    const thread = desk.thread(theirs.id)
    const off = thread.subscribe(() => {})
    await until(thread.subscribe, () => thread.getSnapshot().status === 'error', 5_000, 'the error')
    expect(thread.getSnapshot()).toMatchObject({ conversation: null, messages: [], error: { status: 404 } })
    expect(errors.map((e) => e.code)).toEqual(['not_found'])
    off()
  })

  it('shutdown clears every store, and every later call says it was shut down', async () => {
    const { client, requests } = await customer()
    const desk = messenger(client)
    const c = await desk.conversations.start({ text: 'Hello' })
    const list = desk.conversationList()
    const thread = desk.thread(c.id)
    const offs = [list.subscribe(() => {}), thread.subscribe(() => {}), desk.unread.subscribe(() => {})]
    await until(thread.subscribe, () => thread.getSnapshot().status === 'ready', 5_000, 'the thread')
    await until(list.subscribe, () => list.getSnapshot().status === 'ready', 5_000, 'the list')

    desk.shutdown()
    desk.shutdown() // twice is once
    expect(list.getSnapshot()).toMatchObject({ status: 'error', conversations: [], error: { code: 'shut_down' } })
    expect(thread.getSnapshot()).toMatchObject({ status: 'error', messages: [], conversation: null })
    expect(desk.unread.getSnapshot()).toMatchObject({ total: 0, error: { code: 'shut_down' } })
    expect(desk.unread.getSnapshot().byConversation.size).toBe(0)

    const sent = requests.length
    for (const call of [
      () => desk.me(),
      () => desk.conversations.list(),
      () => desk.conversations.reply(c.id, { text: 'again' }),
      () => desk.docs.search({ query: 'export' }),
      () => list.refresh(),
    ])
      expect((await rejection(call())).code).toBe('shut_down')
    for (const call of [() => desk.thread(c.id), () => desk.conversationList(), () => desk.on('message', () => {})])
      expect(call).toThrow(expect.objectContaining({ code: 'shut_down' }) as Error)
    expect(requests.length).toBe(sent)
    offs.forEach((off) => off())
  })
})
