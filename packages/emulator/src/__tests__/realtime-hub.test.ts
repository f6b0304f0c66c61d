import { DEFAULTS, decodeToken, mintToken } from '@tandem/server'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { DEV_APP } from '../defaults.js'
import { useEmulator } from './helpers.js'
import { TestSocket, type Frame } from './realtime-helpers.js'
import { slack } from '../../../../test/utils/wait.js'

const OTHER = { appId: 'app_other', keys: [{ id: 'key_other', secret: 'other_secret' }] }
const emu = useEmulator({
  apps: [DEV_APP, OTHER],
  realtime: {
    heartbeatMs: 150,
    publishRate: { limit: 5, intervalMs: 60_000, burst: 5 },
    maxMessageBytes: 16_384,
  },
})

/** Its own emulator: in this file's, a 300 ms handshake timeout closed a busy machine's slow connects. */
const hasty = useEmulator({ apps: [DEV_APP], realtime: { handshakeTimeoutMs: 300 } })

const sockets: TestSocket[] = []
afterEach(() => {
  for (const s of sockets.splice(0)) s.close()
})
const token = (o: Parameters<ReturnType<typeof emu>['mintToken']>[0] = {}) => emu().mintToken({ subject: 'u1', ...o })
async function connect(t?: string): Promise<TestSocket> {
  const { socket } = await TestSocket.connect(emu(), t ?? (await token()))
  sockets.push(socket)
  return socket
}
async function openRaw(target = emu()): Promise<TestSocket> {
  const socket = await TestSocket.open(target)
  sockets.push(socket)
  return socket
}
const reason = (f: { reason: string }) => JSON.parse(f.reason) as { code: string; retryAfterMs?: number }

describe('handshake', () => {
  it('connect → connected with the announced limits and the token lifetime', async () => {
    const socket = await openRaw()
    const connected = await socket.request({ type: 'connect', token: await token({ ttlSeconds: 600 }) })
    expect(connected).toMatchObject({ type: 'connected', heartbeatMs: 150, maxMessageBytes: 16_384, resumed: false })
    expect(connected.connectionId).toMatch(/^conn_/)
    expect(connected.expiresIn).toBeGreaterThanOrEqual(598)
    expect(connected.expiresIn).toBeLessThanOrEqual(600)
  })

  it.each([
    [
      'forged',
      () =>
        mintToken({ appId: 'app_dev', keyId: 'key_dev', secret: 'wrong', subject: 'u1', scope: ['realtime'] }).then(
          (t) => t.token,
        ),
      4101,
    ],
    ['expired', () => token({ now: Date.now() - 3_600_000, ttlSeconds: 60 }), 4100],
    [
      'unknown app',
      () =>
        mintToken({ appId: 'app_nope', keyId: 'key_dev', secret: 'x', subject: 'u1', scope: [] }).then((t) => t.token),
      4101,
    ],
    [
      'other app key',
      () =>
        mintToken({ appId: 'app_dev', keyId: 'key_other', secret: 'other_secret', subject: 'u1', scope: [] }).then(
          (t) => t.token,
        ),
      4101,
    ],
    ['garbage', async () => 'not.a.jwt', 4101],
  ])('%s token → 41xx close', async (_name, make, code) => {
    const socket = await openRaw()
    socket.send({ type: 'connect', id: 1, token: await make() })
    const closed = await socket.closedWithin()
    expect(closed.code).toBe(code)
    expect(reason(closed).code).toBe(code === 4100 ? 'token_expired' : 'token_invalid')
    expect(socket.inbox).toEqual([])
  })

  it('no connect → 4203 after handshakeTimeoutMs', async () => {
    const socket = await openRaw(hasty())
    const closed = await socket.closedWithin(2000)
    expect(closed.code).toBe(4203)
    expect(reason(closed)).toEqual({ code: 'handshake_timeout' })
  })

  it('a frame other than connect first → 4000; garbage first → 4000', async () => {
    const a = await openRaw()
    a.send({ type: 'subscribe', id: 1, channels: [{ channel: 'x' }] })
    expect((await a.closedWithin()).code).toBe(4000)
    const b = await openRaw()
    b.send('{{{')
    expect((await b.closedWithin()).code).toBe(4000)
  })

  it('leaves other upgrade paths alone (404 when nobody else handles them)', async () => {
    const ws = new WebSocket(`${emu().url.replace('http', 'ws')}/elsewhere`)
    const status = await new Promise<number | undefined>((resolve) => {
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode))
      ws.on('error', () => resolve(undefined))
    })
    expect(status).toBe(404)
  })
})

describe('subscribe and publish', () => {
  it('emu.realtime.publish stores and fans out with no token or bucket (more than the publish limit)', async () => {
    const bob = await connect(await token({ subject: 'bob' }))
    await bob.request({ type: 'subscribe', channels: [{ channel: 'chat:flood' }] })
    // 20 publishes: four times the per-connection bucket of this emulator (5 a minute).
    const acks = Array.from({ length: 20 }, (_, i) => emu().realtime.publish('chat:flood', 'message', { i }))
    expect(acks.map((a) => a.offset)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    const got = await bob.take((f) => f.type === 'message' && f.offset === 20)
    expect(got).toMatchObject({ clientId: 'server', data: { i: 19 } })
    const named = emu().realtime.publish('chat:flood', 'message', null, { clientId: 'flood-bot' })
    expect((await bob.take((f) => f.offset === named.offset)).clientId).toBe('flood-bot')
    const h = await bob.request({ type: 'history', channel: 'chat:flood', limit: 100 })
    expect(h.messages.map((m) => m.offset)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1))
  })

  it("round trip: ack before the publisher's own copy, every subscriber gets it once", async () => {
    const alice = await connect()
    const bob = await connect(await token({ subject: 'bob' }))
    for (const s of [alice, bob]) {
      const sub = await s.request({ type: 'subscribe', channels: [{ channel: 'chat:rt' }] })
      expect(sub.channels[0]!).toMatchObject({ channel: 'chat:rt', offset: 0, recovered: true, missed: [] })
      expect(sub.channels[0]!.epoch).toMatch(/^ep_/)
    }
    const before = alice.inbox.length
    const ack = await alice.request({
      type: 'publish',
      channel: 'chat:rt',
      event: 'message',
      data: { text: 'hi' },
      idempotencyKey: 'k1',
    })
    expect(ack).toMatchObject({ type: 'ack', channel: 'chat:rt', offset: 1, duplicate: false })
    const own = await alice.take((f) => f.type === 'message')
    expect(alice.inbox.slice(before).some((f) => f.type === 'message')).toBe(false)
    const got = await bob.take((f) => f.type === 'message')
    for (const m of [own, got]) {
      expect(m).toMatchObject({
        channel: 'chat:rt',
        event: 'message',
        data: { text: 'hi' },
        offset: 1,
        epoch: ack.epoch,
        messageId: ack.messageId,
        clientId: 'u1',
      })
      expect(typeof m.ts).toBe('number')
    }
  })

  it('200 channels in one subscribe frame', async () => {
    const s = await connect()
    const channels = Array.from({ length: 200 }, (_, i) => ({ channel: `bulk:${i}` }))
    const reply = await s.request({ type: 'subscribe', channels })
    expect(reply.channels).toHaveLength(200)
    expect(reply.channels.every((c: Frame, i: number) => c.channel === `bulk:${i}` && c.offset === 0 && !c.error)).toBe(
      true,
    )
    const again = await s.request({ type: 'subscribe', channels: [{ channel: 'bulk:7' }] })
    expect(again.channels[0]!.error).toBeUndefined() // idempotent
  })

  it('idempotent publish: the repeat gets the first ack with duplicate: true and is stored once', async () => {
    const s = await connect()
    await s.request({ type: 'subscribe', channels: [{ channel: 'idem' }] })
    const first = await s.request({ type: 'publish', channel: 'idem', event: 'e', data: 1, idempotencyKey: 'same' })
    const second = await s.request({ type: 'publish', channel: 'idem', event: 'e', data: 1, idempotencyKey: 'same' })
    expect(second).toMatchObject({
      offset: first.offset,
      epoch: first.epoch,
      messageId: first.messageId,
      duplicate: true,
    })
    const history = await s.request({ type: 'history', channel: 'idem' })
    expect(history.messages).toHaveLength(1)
    await s.request({ type: 'ping' }) // anything in flight has arrived by now
    expect(s.drain('message')).toHaveLength(1)
  })

  it('capabilities are checked per channel', async () => {
    const s = await connect(await token({ scope: ['realtime:subscribe:chat:*', 'realtime:presence:chat:*'] }))
    const reply = await s.request({ type: 'subscribe', channels: [{ channel: 'chat:ok' }, { channel: 'secret' }] })
    expect(reply.channels[0]!).toMatchObject({ channel: 'chat:ok', offset: 0 })
    expect(reply.channels[1]).toMatchObject({ channel: 'secret', error: { code: 'forbidden', temporary: false } })
    // A name the contract refuses refuses the frame (its schema), not one channel.
    const bad = await s.request({ type: 'subscribe', channels: [{ channel: 'chat:ok' }, { channel: 'bad name!' }] })
    expect(bad).toMatchObject({ type: 'error', error: { code: 'invalid_channel' } })
    const pub = await s.request({ type: 'publish', channel: 'chat:ok', event: 'e', data: null, idempotencyKey: 'k' })
    expect(pub).toMatchObject({ type: 'error', error: { code: 'forbidden' } })
    expect(pub.error.requestId).toMatch(/^rt_/)
    const presence = await s.request({ type: 'presence.enter', channel: 'chat:other' })
    expect(presence.error.code).toBe('not_subscribed')
  })

  it('rate limit: rate_limited with retryAfterMs, then 4290 after 20 refusals in a row', async () => {
    const s = await connect()
    const publish = (i: number) =>
      s.request({ type: 'publish', channel: 'fast', event: 'e', data: i, idempotencyKey: `r${i}` })
    for (let i = 0; i < 5; i++) expect((await publish(i)).type).toBe('ack')
    for (let i = 5; i < 25; i++) {
      const refused = await publish(i)
      expect(refused.error).toMatchObject({ code: 'rate_limited', temporary: true })
      expect(refused.error.retryAfterMs).toBeGreaterThan(0)
    }
    s.send({ type: 'publish', id: 'last', channel: 'fast', event: 'e', data: 0, idempotencyKey: 'r-last' })
    const closed = await s.closedWithin()
    expect(closed.code).toBe(4290)
    expect(reason(closed).retryAfterMs).toBeGreaterThan(0)
  })
})

describe('heartbeats and tokens', () => {
  it('heartbeats arrive every heartbeatMs, and stop while paused', async () => {
    const s = await connect()
    // Each comes within a bounded wait, far under the default interval a hub that ignored heartbeatMs
    // would keep; never sooner than heartbeatMs apart (a lower bound the hub's timer enforces).
    const within = Math.min(slack(1_000), 10_000)
    const a = await s.take((f) => f.type === 'heartbeat', within)
    const b = await s.take((f) => f.type === 'heartbeat', within)
    expect(b.ts - a.ts).toBeGreaterThanOrEqual(140)
    emu().realtime.pauseHeartbeats()
    try {
      s.drain('heartbeat')
      await expect(s.take((f) => f.type === 'heartbeat', 400)).rejects.toThrow(/no matching frame/)
    } finally {
      emu().realtime.resumeHeartbeats()
    }
    await s.take((f) => f.type === 'heartbeat', 1000)
  })

  // exp plus the clock tolerance lands 1–2 s ahead: tokens have whole-second times and a 60 s
  // minimum lifetime, and the socket closes when verifyToken starts refusing the token.
  const shortToken = () =>
    token({ now: (Math.ceil(Date.now() / 1000) + 1 - 60 - DEFAULTS.clockToleranceSeconds) * 1000, ttlSeconds: 60 })

  it('token expiry → close 4100', async () => {
    const s = await connect(await shortToken())
    const closed = await s.closedWithin(3000)
    expect(closed.code).toBe(4100)
    expect(reason(closed).code).toBe('token_expired')
  })

  it('auth before expiry keeps the connection and its channels', async () => {
    const first = await shortToken()
    const s = await connect(first)
    await s.request({ type: 'subscribe', channels: [{ channel: 'kept' }] })
    const bad = await s.request({ type: 'auth', token: 'garbage' })
    expect(bad.error.code).toBe('token_invalid')
    const other = await s.request({ type: 'auth', token: await token({ subject: 'someone-else' }) })
    expect(other.error.code).toBe('token_invalid')
    const authed = await s.request({ type: 'auth', token: await token({ ttlSeconds: 600 }) })
    expect(authed).toMatchObject({ type: 'authed' })
    expect(authed.expiresIn).toBeGreaterThan(590)
    // Wait on heartbeats (not a sleep) until well past the first token's expiry.
    await s.take(
      (f) =>
        f.type === 'heartbeat' &&
        f.ts > ((decodeToken(first)?.claims.exp as number) + DEFAULTS.clockToleranceSeconds) * 1000 + 300,
      3000,
    )
    expect(s.ws.readyState).toBe(WebSocket.OPEN)
    const pub = await s.request({ type: 'publish', channel: 'kept', event: 'e', data: 1, idempotencyKey: 'k' })
    expect(pub.type).toBe('ack')
    await s.take((f) => f.type === 'message')
  })
})
