// Issue 43, "a third party agrees": a support session on the emulator (two agents viewing, typing
// and locking a conversation, its customer listening, an agent's reply) beside a hostile member
// that sends member data the contract refuses, forged locks and a burst past its presence bucket.
// EVERY frame every client socket receives is recorded and checked by an ajv instance of this test's
// own, built from the published asyncapi.json: each frame against ServerFrame, each message carried
// on a customer channel against its event's payload, each member of the resource presence channel
// against ResourcePresenceData (the channels' messages, read from the document). 0 may fail.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CUSTOMER_SCOPE, customerChannelName, resourcePresenceChannel } from '@tandem/contract'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { createRealtime, type Realtime } from '@tandem/realtime'
import { collectionPresence, resourcePresence } from '@tandem/realtime/resource-presence'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { connectRaw, type RawFrame } from '../utils/raw-socket.js'
import { during, until } from '../utils/wait.js'

type Json = Record<string, unknown>
const PATH = 'support/conversations'
const PRESENCE = resourcePresenceChannel(PATH)

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

/** The third party: the published document, its own ajv, and what each channel's messages must be. */
function thirdParty() {
  const file = fileURLToPath(new URL('../../packages/contract/spec/asyncapi.json', import.meta.url))
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Json
  const schemas = (doc.components as { schemas: Json }).schemas
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true })
  addFormats(ajv)
  ajv.addSchema({
    $id: 'doc',
    $defs: JSON.parse(JSON.stringify(schemas).replaceAll('#/components/schemas/', 'doc#/$defs/')) as Json,
  })
  const compile = (ref: string) => ajv.compile({ $ref: ref.replace('#/components/schemas/', 'doc#/$defs/') })
  const serverFrame = compile('#/components/schemas/ServerFrame')
  // Every channel but the socket itself: its address as a pattern, its messages by name.
  const channels = Object.values(
    doc.channels as Record<string, { address: string; messages: Record<string, { payload: { $ref: string } }> }>,
  )
    .filter((c) => !c.address.startsWith('/'))
    .map((c) => ({
      address: new RegExp(`^${c.address.split(/\{[^}]+\}/).join('[^:]+')}$`),
      messages: new Map(Object.entries(c.messages).map(([name, m]) => [name, compile(m.payload.$ref)])),
    }))
  const messagesOf = (channel: unknown) =>
    typeof channel === 'string' ? channels.find((c) => c.address.test(channel))?.messages : undefined
  const explain = (v: ValidateFunction) =>
    (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ')

  /** What is wrong with one frame received, by the document ([] when nothing). */
  return function check(frame: RawFrame): string[] {
    const problems: string[] = []
    if (!serverFrame(frame as unknown)) problems.push(`${String(frame.type)}: ${explain(serverFrame)}`)
    const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : [])
    // Messages carried: a push, a history page, what a subscribe missed.
    const carried =
      frame.type === 'message'
        ? [frame as Json]
        : [...list(frame.messages), ...list(frame.channels).flatMap((c) => list(c.missed))]
    for (const m of carried) {
      const validate = messagesOf(m.channel)?.get(String(m.event))
      const declared = messagesOf(m.channel)
      if (declared && !validate) problems.push(`${String(m.channel)}: event ${String(m.event)} is not in the document`)
      else if (validate && !validate(m.data))
        problems.push(`${String(m.channel)} ${String(m.event)}: ${explain(validate)}`)
    }
    // Members: a presence push or a `presence.members` reply, on a channel that declares a member.
    const member = messagesOf(frame.channel)?.get('member')
    const members =
      frame.type === 'presence.event' ? [frame.member] : frame.type === 'presence.members' ? list(frame.members) : []
    if (member)
      for (const m of members as Json[])
        if (!member(m.data)) problems.push(`${String(frame.channel)} member: ${explain(member)}`)
    return problems
  }
}

describe('a third party agrees', () => {
  it('every frame relayed in a support session with a hostile member matches asyncapi.json', async () => {
    const check = thirdParty()
    // The check itself can fail: a member, a customer event and a frame bent out of the document.
    const event = (data: unknown) => ({
      type: 'presence.event',
      channel: PRESENCE,
      action: 'update',
      ts: 1,
      member: { clientId: 'a', connectionId: 'c', data },
    })
    expect(check(event({ name: null, viewing: [], typing: [], locks: [] }))).toEqual([])
    expect(
      check(event({ name: 'x', viewing: [], typing: [], locks: [{ id: 'c', acquiredAt: 0, ttlMs: 9e15 }] })),
    ).not.toEqual([])
    const typing = { conversationId: 'cnv_1', typing: true, name: 5 }
    const push = {
      type: 'message',
      channel: 'support:customer:cus_1',
      event: 'typing',
      data: typing,
      offset: 1,
      epoch: 'e',
      messageId: 'm',
      ts: 1,
    }
    expect(check(push)).not.toEqual([])
    expect(check({ type: 'heartbeat', ts: 1, extra: 1 })).not.toEqual([])
    const received: RawFrame[] = []
    const record = (text: string) => void received.push(JSON.parse(text) as RawFrame)
    const emu: Emulator = await startEmulator({
      host: '127.0.0.1',
      port: 0,
      plans: { maps: false, support: false, realtime: false },
      customerPlan: false,
      realtime: { presenceGraceMs: 300 },
    })
    cleanups.push(() => emu.close())
    class Recording extends WebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols)
        this.on('message', (data) => record(String(data)))
      }
    }
    const client = (subject: string, scope: string[], profile?: { name: string }): Realtime => {
      const fetchToken = async () => ({
        token: await emu.mintToken({ subject, scope, ...(profile ? { profile } : {}) }),
        expiresIn: 600,
      })
      const rt = createRealtime({ auth: { fetchToken }, url: `${emu.url}/realtime` }, { WebSocket: Recording })
      cleanups.push(() => rt.close())
      return rt
    }
    const ada = await emu.mintToken({
      subject: 'agt_ada',
      scope: ['support', 'realtime'],
      profile: { name: 'Ada Agent' },
    })
    const conversations = (await (
      await fetch(`${emu.url}/support/v1/conversations?limit=2`, { headers: { authorization: `Bearer ${ada}` } })
    ).json()) as {
      data: { id: string; customer: { id: string } }[]
    }
    const [c, d] = conversations.data as [
      { id: string; customer: { id: string } },
      { id: string; customer: { id: string } },
    ]
    const seeded = (
      (await (await fetch(`${emu.url}/support/v1/agents`, { headers: { authorization: `Bearer ${ada}` } })).json()) as {
        data: { id: string }[]
      }
    ).data[0]!

    // The customer listens with the SDK; a second customer on a raw socket.
    const customer = client(c.customer.id, [CUSTOMER_SCOPE])
    const heard: unknown[] = []
    const channel = customer.channel(customerChannelName(c.customer.id))
    cleanups.push(channel.subscribe((m) => void heard.push(m)))
    const other = await connectRaw(
      emu.url,
      await emu.mintToken({ subject: d.customer.id, scope: [CUSTOMER_SCOPE] }),
      record,
    )
    cleanups.push(() => other.close())
    await other.request({ type: 'subscribe', channels: [{ channel: customerChannelName(d.customer.id) }] })

    // Two agents on the conversation: viewing, typing, a lock and a waiting claim.
    const first = resourcePresence(client('agt_ada', ['support', 'realtime'], { name: 'Ada Agent' }), PATH, c.id, {
      name: 'Ada',
    })
    const bobRt = client(seeded.id, ['support', 'realtime'])
    const second = resourcePresence(bobRt, PATH, c.id, { name: 'Bob' })
    const rows = collectionPresence(bobRt, PATH)
    cleanups.push(rows.subscribe(() => {}))
    first.setTyping(true)
    first.lock({ ttlMs: 30_000 })
    cleanups.push(
      first.subscribe(() => {}),
      second.subscribe(() => {}),
    )
    await until(first.subscribe, () => first.getSnapshot().lock?.mine === true, 10_000, 'the lock held')
    second.lock()
    await until(
      second.subscribe,
      () => second.getSnapshot().lock?.holder.clientId === 'agt_ada',
      10_000,
      'the lock seen',
    )
    await fetch(`${emu.url}/support/v1/conversations/${c.id}/reply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Refunded, with <b>tags</b> \u202e and all.' }),
    })

    // The hostile member: data the contract refuses, a forged lock, a burst past its bucket.
    const hostile = await connectRaw(
      emu.url,
      await emu.mintToken({ subject: 'agt_mallory', scope: ['realtime'], profile: { name: 'Mallory' } }),
      record,
    )
    cleanups.push(() => hostile.close())
    await hostile.request({
      type: 'subscribe',
      channels: [{ channel: PRESENCE }, { channel: customerChannelName(c.customer.id) }],
    })
    const valid = {
      name: 'Evil',
      viewing: [c.id, d.id],
      typing: [c.id, d.id],
      locks: [{ id: c.id, acquiredAt: 0, ttlMs: 600_000 }],
    }
    const invalid: unknown[] = [
      'a string',
      42,
      null,
      { name: 'x' },
      { ...valid, extra: true },
      { ...valid, typing: Array.from({ length: 21 }, (_, i) => `cnv_${i}`) },
      { ...valid, locks: [{ id: c.id, acquiredAt: 0, ttlMs: 0 }] },
      { ...valid, locks: [{ id: c.id, acquiredAt: 0, ttlMs: 9e15 }] },
      { ...valid, locks: [{ id: c.id, acquiredAt: -1, ttlMs: 60_000 }] },
      { ...valid, name: 'n'.repeat(201) },
      { ...valid, name: '<img src=x onerror=alert(1)>\u202e' },
      { ...valid, name: 'x'.repeat(30_000) },
      { ...valid, viewing: [c.id, c.id] },
    ]
    for (const data of invalid) await hostile.request({ type: 'presence.update', channel: PRESENCE, data })
    await hostile.request({ type: 'presence.update', channel: PRESENCE, data: valid })
    for (let i = 0; i < 30; i++)
      hostile.send({
        type: 'presence.update',
        id: `b${i}`,
        channel: PRESENCE,
        data: { ...valid, typing: i % 2 ? [c.id] : [d.id] },
      })
    await hostile.untilClosed(10_000).catch(() => undefined) // 4290, or still open: either way its frames count
    await during(300 + 2_500) // its member's grace, then the customers' last held typing
    first.close()
    second.close()
    const gone = () => [...rows.getSnapshot().values()].every((a) => a.viewers.every((m) => m.clientId !== 'agt_ada'))
    await until(rows.subscribe, gone, 10_000, 'the agents gone')

    const problems = received.flatMap((f) => check(f).map((p) => `${p}  ←  ${JSON.stringify(f).slice(0, 200)}`))
    const types = new Map<string, number>()
    for (const f of received) types.set(String(f.type), (types.get(String(f.type)) ?? 0) + 1)
    console.info(
      `third party: ${received.length} frames checked (${[...types].map(([t, n]) => `${n} ${t}`).join(', ')}), ` +
        `${problems.length} invalid; the customer heard ${heard.length} messages`,
    )
    expect(problems).toEqual([])
    expect(received.length).toBeGreaterThan(50)
    expect(types.get('presence.event')).toBeGreaterThan(0)
    expect(heard.length).toBeGreaterThan(0)
  })
})
