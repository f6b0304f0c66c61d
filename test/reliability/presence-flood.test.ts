// Issue 43, rows 1 and 2: a hostile agent on the resource presence channel. Over a real socket to
// the emulator it sends 1,000 `presence.update` frames as fast as it can, each swapping the 20
// conversations its `typing` list names (40 real seeded conversations, each with its customer):
// the service refuses past the connection's presence bucket, the customers' channels hear at most
// one `typing` per conversation per second (counted by a real customer subscriber), their history
// barely moves, an agent's reply stays in it and a customer resuming from before the flood
// recovers. Then member data the contract refuses (a string, missing and extra fields, 21 ids,
// ttlMs 0, long and disguised names, duplicates): each refused `bad_request` naming the field,
// nothing relayed; and what a customer hears of an agent is its verified name, never the member's.
import {
  CUSTOMER_SCOPE,
  CUSTOMER_TYPING_INTERVAL_MS,
  PRESENCE_RATE,
  customerChannelName,
  resourcePresenceChannel,
} from '@tandem/contract'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { afterEach, describe, expect, it } from 'vitest'
import { connectRaw, type RawFrame, type RawSocket } from '../utils/raw-socket.js'
import { during, waitUntil } from '../utils/wait.js'

const PRESENCE = resourcePresenceChannel('support/conversations')
const FLOOD = 1_000
const GRACE_MS = 300

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function emulator(): Promise<Emulator> {
  const emu = await startEmulator({
    host: '127.0.0.1',
    port: 0,
    plans: { maps: false, support: false, realtime: false },
    customerPlan: false,
    realtime: { presenceGraceMs: GRACE_MS },
  })
  cleanups.push(() => emu.close())
  return emu
}

const agentToken = (emu: Emulator, subject: string, name?: string) =>
  emu.mintToken({ subject, scope: ['support', 'realtime'], ...(name ? { profile: { name } } : {}) })

async function rest<T>(emu: Emulator, token: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${emu.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

interface Conversation {
  id: string
  customer: { id: string }
}

async function socket(emu: Emulator, token: string, channels: RawFrame[]): Promise<RawSocket> {
  const s = await connectRaw(emu.url, token)
  cleanups.push(() => s.close())
  const sub = await s.request({ type: 'subscribe', channels })
  const results = sub.channels as { error?: unknown; epoch: string; offset: number }[]
  expect(results.every((r) => r.error === undefined)).toBe(true)
  return s
}

const typingEvents = (s: RawSocket) => s.frames.filter((f) => f.type === 'message' && f.event === 'typing')

describe('presence flood on support:conversations:presence', () => {
  it('1,000 frames: refused past the bucket; customers hear ≤ 1 typing per conversation per second; history and resume hold', async () => {
    const emu = await emulator()
    const agent = await agentToken(emu, 'agt_honest', 'Honest Agent')
    const list = await rest<{ data: Conversation[] }>(emu, agent, '/support/v1/conversations?limit=40')
    const ids = list.data.map((c) => c.id)
    expect(ids).toHaveLength(40)
    const [a, b] = [ids.slice(0, 20), ids.slice(20)]
    const target = list.data[0]!

    // A real reply before the flood, then the customer's position.
    const reply = await rest<{ id: string }>(emu, agent, `/support/v1/conversations/${target.id}/reply`, {
      text: 'We have refunded the order.',
    })
    const customerToken = await emu.mintToken({ subject: target.customer.id, scope: [CUSTOMER_SCOPE] })
    const channel = customerChannelName(target.customer.id)
    const customer = await socket(emu, customerToken, [{ channel }])
    // And every one of the 40 customers' channels, through a desk that may read them all.
    const desk = await socket(
      emu,
      agent,
      list.data.map((c) => ({ channel: customerChannelName(c.customer.id) })),
    )
    const before = (await customer.request({ type: 'history', channel, limit: 1000 })) as RawFrame & {
      epoch: string
      offset: number
      messages: { event: string; data: { id?: string } }[]
    }
    expect(before.messages.some((m) => m.event === 'message' && m.data.id === reply.id)).toBe(true)

    // The flood: every frame at once, each swapping the typing list between a and b.
    const hostile = await socket(emu, await agentToken(emu, 'agt_mallory', 'Mallory Verified'), [{ channel: PRESENCE }])
    const from = hostile.frames.length
    const started = Date.now()
    for (let i = 0; i < FLOOD; i++)
      hostile.send({
        type: 'presence.update',
        id: `f${i}`,
        channel: PRESENCE,
        data: { name: 'Evil Twin', viewing: [], typing: i % 2 === 0 ? a : b, locks: [] },
      })
    await waitUntil(
      () =>
        hostile.closed !== undefined || hostile.frames.slice(from).filter((f) => f.id !== undefined).length === FLOOD,
      { timeoutMs: 30_000, what: 'every frame answered, or the socket closed' },
    )
    const floodMs = Date.now() - started
    const replies = hostile.frames.slice(from).filter((f) => typeof f.id === 'string' && f.id.startsWith('f'))
    const ok = replies.filter((f) => f.type === 'ok').length
    const limited = replies.filter((f) => (f.error as { code?: string } | undefined)?.code === 'rate_limited').length
    const unanswered = FLOOD - replies.length
    const closedWith = hostile.closed?.code
    // Its member (held for a resume, then gone) stops typing; the last held change goes out at its interval's end.
    await during(GRACE_MS + 2 * CUSTOMER_TYPING_INTERVAL_MS + 500)
    const elapsed = Date.now() - started

    const heard = typingEvents(customer) as (RawFrame & {
      ts: number
      data: { conversationId: string; name: unknown; typing: boolean }
    })[]
    const after = (await customer.request({ type: 'history', channel, limit: 1000 })) as typeof before
    const again = await connectRaw(emu.url, customerToken)
    cleanups.push(() => again.close())
    const since = { epoch: before.epoch, offset: before.offset }
    const resumed = await again.request({ type: 'subscribe', channels: [{ channel, since }] })
    const result = (resumed.channels as { recovered: boolean; missed: unknown[] }[])[0]!
    const all = typingEvents(desk) as (RawFrame & { ts: number; data: { conversationId: string } })[]
    const byConversation = new Map<string, typeof all>()
    for (const f of all)
      byConversation.set(f.data.conversationId, [...(byConversation.get(f.data.conversationId) ?? []), f])
    const worst = Math.max(...[...byConversation.values()].map((fs) => fs.length))
    console.info(
      `presence flood: ${FLOOD} frames in ${floodMs} ms → ${ok} ok, ${limited} rate_limited, ${unanswered} cut by ` +
        `close ${closedWith ?? '-'}; 40 customer channels heard ${all.length} typing (at most ${worst} for one ` +
        `conversation) in ${elapsed} ms; the watched customer's history offset ${before.offset} → ${after.offset}; ` +
        `reply kept: ${after.messages.some((m) => m.data.id === reply.id)}; resume recovered: ${result.recovered}`,
    )

    // Most frames refused: the bucket's burst and what refilled meanwhile went through, no more.
    const refill = Math.ceil((floodMs * PRESENCE_RATE.limit) / PRESENCE_RATE.intervalMs)
    expect(ok).toBeLessThanOrEqual(PRESENCE_RATE.burst + refill)
    expect(limited).toBeGreaterThan(0)
    expect(ok + limited + unanswered).toBe(FLOOD)
    if (unanswered > 0) expect(closedWith).toBe(4290)
    // One typing per conversation per interval, by the service's clock, with the verified name.
    expect(heard.length).toBeGreaterThan(0)
    for (let i = 1; i < heard.length; i++)
      expect(heard[i]!.ts - heard[i - 1]!.ts).toBeGreaterThanOrEqual(CUSTOMER_TYPING_INTERVAL_MS - 2)
    expect(heard.length).toBeLessThanOrEqual(Math.ceil(elapsed / CUSTOMER_TYPING_INTERVAL_MS) + 1)
    for (const fs of byConversation.values()) {
      for (let i = 1; i < fs.length; i++)
        expect(fs[i]!.ts - fs[i - 1]!.ts).toBeGreaterThanOrEqual(CUSTOMER_TYPING_INTERVAL_MS - 2)
      expect((fs.at(-1)!.data as { typing?: unknown }).typing).toBe(false)
    }
    expect(byConversation.size).toBe(40)
    expect(new Set(heard.map((f) => f.data.name))).toEqual(new Set(['Mallory Verified']))
    expect(heard.at(-1)!.data.typing).toBe(false) // the stop was not lost
    // History barely moved: the reply is kept, and a resume from before the flood is whole.
    expect(after.offset - before.offset).toBe(heard.length)
    expect(after.messages.some((m) => m.event === 'message' && m.data.id === reply.id)).toBe(true)
    expect(result.recovered).toBe(true)
    expect(result.missed).toHaveLength(heard.length)
  })

  it('member data the contract refuses: bad_request naming the field, nothing relayed; customers hear verified names', async () => {
    const emu = await emulator()
    const agent = await agentToken(emu, 'agt_honest', 'Honest Agent')
    const [c, d] = (await rest<{ data: Conversation[] }>(emu, agent, '/support/v1/conversations?limit=2')).data
    const seeded = (await rest<{ data: { id: string; name: string }[] }>(emu, agent, '/support/v1/agents')).data[0]!
    const listen = async (conversation: Conversation) => {
      const token = await emu.mintToken({ subject: conversation.customer.id, scope: [CUSTOMER_SCOPE] })
      return socket(emu, token, [{ channel: customerChannelName(conversation.customer.id) }])
    }
    const [customerC, customerD] = [await listen(c!), await listen(d!)]
    const observer = await socket(emu, agent, [{ channel: PRESENCE }])
    const hostile = await socket(emu, await agentToken(emu, 'agt_mallory', 'Mallory Verified'), [{ channel: PRESENCE }])

    const valid = { name: 'Evil Twin', viewing: [c!.id], typing: [c!.id], locks: [] }
    const lock = { id: c!.id, acquiredAt: 0, ttlMs: 60_000 }
    const cases: [what: string, data: unknown, message: string][] = [
      ['a string', 'I am data', '"data" must be a JSON object'],
      ['missing fields', { name: 'x' }, '"data.viewing" is required'],
      ['an extra field', { ...valid, admin: true }, '"data.admin" is not a field the contract names here'],
      [
        '21 typing ids',
        { ...valid, typing: Array.from({ length: 21 }, (_, i) => `cnv_${i}`) },
        '"data.typing" must have at most 20 items',
      ],
      ['ttlMs 0', { ...valid, locks: [{ ...lock, ttlMs: 0 }] }, '"data.locks[0].ttlMs" must be at least 1000'],
      ['ttlMs 9e15', { ...valid, locks: [{ ...lock, ttlMs: 9e15 }] }, '"data.locks[0].ttlMs" must be at most 600000'],
      ['a 201-character name', { ...valid, name: 'a'.repeat(201) }, '"data.name" must be at most 200 characters'],
      ['duplicate typing ids', { ...valid, typing: [c!.id, c!.id] }, '"data.typing" must NOT have duplicate items'],
      [
        'two locks of one id',
        { ...valid, locks: [lock, { ...lock, ttlMs: 5_000 }] },
        '"data.locks" must hold at most one lock per id',
      ],
      [
        'HTML and an RTL override',
        { ...valid, name: '<img src=x onerror=alert(1)>\u202eevil' },
        '"data.name" must not hold control',
      ],
      ['a 30 KB name', { ...valid, name: 'x'.repeat(30_000) }, '"data.name" must be at most 200 characters'],
    ]
    const wrong: string[] = []
    for (const [what, data, message] of cases) {
      const reply = await hostile.request({ type: 'presence.update', channel: PRESENCE, data })
      const error = reply.error as { code?: string; message?: string } | undefined
      if (reply.type !== 'error' || error?.code !== 'bad_request' || !error.message?.startsWith(message))
        wrong.push(`${what}: ${reply.type} ${error?.code ?? ''} ${error?.message ?? ''}`)
    }
    // Then a sound write with a name of its own: what others hear is the token's name.
    expect((await hostile.request({ type: 'presence.update', channel: PRESENCE, data: valid })).type).toBe('ok')
    const typing = await customerC.take((f) => f.type === 'message' && f.event === 'typing')
    // A seeded agent without a profile: the service's agent record names it.
    const desk = await socket(emu, await agentToken(emu, seeded.id), [{ channel: PRESENCE }])
    const deskData = { name: 'Anyone', viewing: [d!.id], typing: [d!.id], locks: [] }
    expect((await desk.request({ type: 'presence.update', channel: PRESENCE, data: deskData })).type).toBe('ok')
    const seededTyping = await customerD.take((f) => f.type === 'message' && f.event === 'typing')

    const events = observer.frames.filter((f) => f.type === 'presence.event')
    console.info(
      `hostile member data: ${cases.length - wrong.length} of ${cases.length} refused naming the field; ` +
        `relayed: ${events.length} presence events, ${typingEvents(customerC).length} typing to the customer`,
    )
    expect(wrong).toEqual([])
    // Only the two sound writes were relayed, under the verified names.
    expect(events.map((f) => (f.member as { data: { name: unknown } }).data.name)).toEqual([
      'Mallory Verified',
      seeded.name,
    ])
    expect(typingEvents(customerC)).toHaveLength(1)
    expect(typing.data).toEqual({ conversationId: c!.id, typing: true, name: 'Mallory Verified' })
    expect(seededTyping.data).toEqual({ conversationId: d!.id, typing: true, name: seeded.name })
  })
})
