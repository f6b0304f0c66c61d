import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { useEmulator } from './helpers.js'
import { messagesOf, TestSocket, type Frame } from './realtime-helpers.js'

const emu = useEmulator({ realtime: { heartbeatMs: 100, presenceGraceMs: 300, historySize: 50, historyTtlMs: 1000 } })

const sockets: TestSocket[] = []
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
  emu().realtime.resumeHeartbeats()
  emu().realtime.delayFrames(0)
})
async function connect(subject: string, resume?: string): Promise<{ socket: TestSocket; connected: Frame }> {
  const opened = await TestSocket.connect(emu(), await emu().mintToken({ subject }), resume)
  sockets.push(opened.socket)
  return opened
}
async function subscribed(subject: string, channel: string): Promise<TestSocket> {
  const { socket } = await connect(subject)
  await socket.request({ type: 'subscribe', channels: [{ channel }] })
  return socket
}
const publish = (s: TestSocket, channel: string, data: unknown, key = `k-${Math.random()}`) =>
  s.request({ type: 'publish', channel, event: 'e', data, idempotencyKey: key })
/** Waits on heartbeats (never a sleep) until `ms` have passed on the server's clock. */
async function elapse(s: TestSocket, ms: number): Promise<void> {
  const until = Date.now() + ms
  s.drain('heartbeat')
  await s.take((f) => f.type === 'heartbeat' && f.ts >= until, ms + 2000)
}

describe('resume', () => {
  it('since gives exactly the missed messages, then live ones: no gap, no duplicate', async () => {
    const pub = await subscribed('pub', 'r:1')
    const { socket: a, connected } = await connect('a')
    const first = await a.request({ type: 'subscribe', channels: [{ channel: 'r:1' }] })
    for (let i = 1; i <= 3; i++) await publish(pub, 'r:1', i)
    const live = await Promise.all([1, 2, 3].map(() => a.take((f) => f.type === 'message')))
    const last = live.map((m) => m.offset as number)
    expect(last).toEqual([1, 2, 3])

    expect(emu().realtime.dropConnections({ subject: 'a' })).toBe(1)
    expect((await a.closedWithin()).code).toBe(4201)
    for (let i = 4; i <= 6; i++) await publish(pub, 'r:1', i)

    const { socket: b, connected: again } = await connect('a', connected.connectionId)
    expect(again).toMatchObject({ resumed: true, connectionId: connected.connectionId })
    const sub = await b.request({
      type: 'subscribe',
      channels: [{ channel: 'r:1', since: { epoch: first.channels[0]!.epoch, offset: 3 } }],
    })
    expect(sub.channels[0]!).toMatchObject({ recovered: true, offset: 6 })
    expect(messagesOf(sub.channels[0]!)).toEqual([4, 5, 6])
    expect(sub.channels[0]!.missed!.map((m) => m.data)).toEqual([4, 5, 6])
    await publish(pub, 'r:1', 7)
    const seven = await b.take((f) => f.type === 'message')
    expect(seven.offset).toBe(7)
    await b.request({ type: 'ping' })
    expect(b.drain('message')).toEqual([])
  })

  it('a new epoch → recovered false and nothing missed', async () => {
    const pub = await subscribed('pub', 'r:epoch')
    const ack = await publish(pub, 'r:epoch', 1)
    emu().realtime.restart({ channel: 'r:epoch' })
    const { socket } = await connect('a')
    const sub = await socket.request({
      type: 'subscribe',
      channels: [{ channel: 'r:epoch', since: { epoch: ack.epoch, offset: 1 } }],
    })
    expect(sub.channels[0]!).toMatchObject({ recovered: false, missed: [], offset: 0 })
    expect(sub.channels[0]!.epoch).not.toBe(ack.epoch)
    expect((await publish(pub, 'r:epoch', 2)).offset).toBe(1)
  })

  it('restart() of the whole hub closes every socket with 4200', async () => {
    const { socket } = await connect('a')
    emu().realtime.restart()
    const closed = await socket.closedWithin()
    expect(closed.code).toBe(4200)
    expect(JSON.parse(closed.reason)).toEqual({ code: 'server_restart' })
  })

  it('trimmed history → partial missed, recovered false; the first offset shows where the gap ends', async () => {
    const pub = await subscribed('pub', 'r:trim')
    let epoch = ''
    for (let i = 1; i <= 10; i++) epoch = (await publish(pub, 'r:trim', i)).epoch
    emu().realtime.trimHistory('r:trim', 3)
    const { socket } = await connect('a')
    const sub = await socket.request({
      type: 'subscribe',
      channels: [{ channel: 'r:trim', since: { epoch, offset: 2 } }],
    })
    expect(sub.channels[0]!.recovered).toBe(false)
    expect(messagesOf(sub.channels[0]!)).toEqual([8, 9, 10])
    const upToDate = await socket.request({ type: 'history', channel: 'r:trim', since: { epoch, offset: 8 } })
    expect(upToDate).toMatchObject({ complete: true, offset: 10 })
    expect(messagesOf(upToDate)).toEqual([9, 10])
    const gap = await socket.request({ type: 'history', channel: 'r:trim', since: { epoch, offset: 0 }, limit: 2 })
    expect(gap.complete).toBe(false)
    expect(messagesOf(gap)).toEqual([8, 9])
  })

  it('history is bounded by count (historySize) and by age (historyTtlMs)', async () => {
    const pub = await subscribed('pub', 'r:bound')
    for (let i = 1; i <= 60; i++) await publish(pub, 'r:bound', i)
    const all = await pub.request({ type: 'history', channel: 'r:bound', limit: 1000 })
    expect(messagesOf(all)).toEqual(Array.from({ length: 50 }, (_, i) => i + 11))
    await elapse(pub, 1050)
    const aged = await pub.request({ type: 'history', channel: 'r:bound', since: { epoch: all.epoch, offset: 55 } })
    expect(aged).toMatchObject({ messages: [], complete: false, offset: 60 })
  })
})

describe('presence', () => {
  it('enter/update/leave are broadcast; get lists members', async () => {
    const watcher = await subscribed('w', 'p:1')
    const { socket: a, connected } = await connect('a')
    await a.request({ type: 'subscribe', channels: [{ channel: 'p:1' }] })
    expect((await a.request({ type: 'presence.enter', channel: 'p:1', data: { s: 1 } })).type).toBe('ok')
    const member = { clientId: 'a', connectionId: connected.connectionId }
    expect(await watcher.take((f) => f.type === 'presence.event')).toMatchObject({
      action: 'enter',
      channel: 'p:1',
      member: { ...member, data: { s: 1 } },
    })
    await a.request({ type: 'presence.update', channel: 'p:1', data: { s: 2 } })
    expect(await watcher.take((f) => f.type === 'presence.event')).toMatchObject({
      action: 'update',
      member: { data: { s: 2 } },
    })
    const got = await watcher.request({ type: 'presence.get', channel: 'p:1' })
    expect(got).toMatchObject({ type: 'presence.members', channel: 'p:1', members: [{ ...member, data: { s: 2 } }] })
    await a.request({ type: 'unsubscribe', channels: ['p:1'] })
    expect(await watcher.take((f) => f.type === 'presence.event')).toMatchObject({ action: 'leave', member })
    expect((await watcher.request({ type: 'presence.get', channel: 'p:1' })).members).toEqual([])
  })

  it("a dead socket's member leaves after presenceGraceMs", async () => {
    const watcher = await subscribed('w', 'p:dead')
    const a = await subscribed('a', 'p:dead')
    await a.request({ type: 'presence.enter', channel: 'p:dead' })
    await watcher.take((f) => f.type === 'presence.event' && f.action === 'enter')
    const dropped = Date.now()
    expect(emu().realtime.dropConnections({ subject: 'a', raw: true })).toBe(1)
    expect((await a.closedWithin()).code).toBe(1006)
    const leave = await watcher.take((f) => f.type === 'presence.event', 2000)
    expect(leave).toMatchObject({ action: 'leave', member: { clientId: 'a' } })
    expect(Date.now() - dropped).toBeGreaterThanOrEqual(280)
  })

  it('a resume within the grace takes the member over silently', async () => {
    const watcher = await subscribed('w', 'p:resume')
    const { socket: a, connected } = await connect('a')
    await a.request({ type: 'subscribe', channels: [{ channel: 'p:resume' }] })
    await a.request({ type: 'presence.enter', channel: 'p:resume', data: 'hi' })
    await watcher.take((f) => f.type === 'presence.event')
    emu().realtime.dropConnections({ subject: 'a' })
    await a.closed
    const { socket: b, connected: again } = await connect('a', connected.connectionId)
    expect(again.resumed).toBe(true)
    await b.request({ type: 'subscribe', channels: [{ channel: 'p:resume' }] })
    await elapse(watcher, 500)
    expect(watcher.drain('presence.event')).toEqual([])
    expect((await watcher.request({ type: 'presence.get', channel: 'p:resume' })).members).toEqual([
      { clientId: 'a', connectionId: connected.connectionId, data: 'hi' },
    ])
    // Another subject cannot take it over.
    const { connected: thief } = await connect('mallory', connected.connectionId)
    expect(thief.resumed).toBe(false)
    expect(thief.connectionId).not.toBe(connected.connectionId)
  })
})

describe('controls', () => {
  it('blackhole: the socket stays open but hears nothing and is not heard', async () => {
    const a = await subscribed('a', 'c:bh')
    const pub = await subscribed('pub', 'c:bh')
    expect(emu().realtime.blackhole('a')).toBe(1)
    a.drain('heartbeat')
    a.send({ type: 'publish', id: 'x', channel: 'c:bh', event: 'e', data: 1, idempotencyKey: 'bh' })
    await publish(pub, 'c:bh', 2)
    await elapse(pub, 250)
    expect(a.inbox).toEqual([])
    expect(a.ws.readyState).toBe(WebSocket.OPEN)
    expect(pub.drain('message').map((m) => m.data)).toEqual([2])
  })

  it('delayFrames keeps the order; revoke closes with 4102 and refuses the old token', async () => {
    const token = await emu().mintToken({ subject: 'rev' })
    const { socket } = await TestSocket.connect(emu(), token)
    sockets.push(socket)
    await socket.request({ type: 'subscribe', channels: [{ channel: 'c:delay' }] })
    emu().realtime.delayFrames(50)
    const sent = Date.now()
    const acks = await Promise.all([1, 2, 3].map((i) => publish(socket, 'c:delay', i)))
    expect(Date.now() - sent).toBeGreaterThanOrEqual(45)
    expect(acks.map((a) => a.offset)).toEqual([1, 2, 3])
    const messages = await Promise.all([0, 1, 2].map(() => socket.take((f) => f.type === 'message')))
    expect(messages.map((m) => m.offset)).toEqual([1, 2, 3])
    emu().realtime.delayFrames(0)

    expect(emu().realtime.revoke('rev')).toBe(1)
    expect((await socket.closedWithin()).code).toBe(4102)
    const retry = await TestSocket.open(emu())
    sockets.push(retry)
    retry.send({ type: 'connect', id: 1, token })
    expect((await retry.closedWithin()).code).toBe(4102)
    const fresh = await connect('rev') // a token minted after the revocation works
    expect(fresh.connected.type).toBe('connected')
  })

  it('stats count connections and frames; waitFor resolves on hub events', async () => {
    const { stats } = emu().realtime
    await emu().realtime.waitFor(() => stats.connections.open === 0, { timeoutMs: 2000 }) // earlier tests' sockets are gone
    const before = { ...stats.connections, publishes: stats.publishes, ping: stats.framesIn.ping ?? 0 }
    const { socket } = await connect('s')
    await socket.request({ type: 'ping' })
    await publish(socket, 'c:stats', 1)
    expect(stats.connections.total).toBe(before.total + 1)
    expect(stats.connections.open).toBe(before.open + 1)
    expect(stats.framesIn.ping).toBe(before.ping + 1)
    expect(stats.framesOut.connected).toBeGreaterThan(0)
    expect(stats.publishes).toBe(before.publishes + 1)
    socket.close()
    await emu().realtime.waitFor(() => stats.connections.open === before.open, { timeoutMs: 2000 })
    await expect(emu().realtime.waitFor(() => false, { timeoutMs: 20 })).rejects.toThrow(/within 20 ms/)
  })
})
