// A happy-dom window supplies online/offline/visibilitychange. Not through `@vitest-environment
// happy-dom`: that environment resolves `ws` to its browser stub, so the emulator could not start.
import { slack, until } from '../../../../../test/utils/wait.js'
import { Window } from 'happy-dom'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { StateChange } from '../../types.js'
import { client, collect, untilState, untilSubscribed, useEmulator } from '../helpers.js'

const emu = useEmulator({ realtime: { heartbeatMs: 1_000 } })

const window = new Window()
const document = window.document
let online = true
Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online })
vi.stubGlobal('navigator', window.navigator)
vi.stubGlobal('document', document)
vi.stubGlobal('addEventListener', window.addEventListener.bind(window))
vi.stubGlobal('removeEventListener', window.removeEventListener.bind(window))
afterAll(async () => {
  vi.unstubAllGlobals()
  await window.happyDOM.close()
})
const goOffline = () => {
  online = false
  window.dispatchEvent(new window.Event('offline'))
}
const goOnline = () => {
  online = true
  window.dispatchEvent(new window.Event('online'))
}
afterEach(() => {
  online = true
})

describe('offline and online (happy-dom window)', () => {
  it('offline: drops the socket and makes no attempt; online: reconnects at once; a publish made offline is delivered once', async () => {
    // A backoff of a minute: a reconnect that waited it out could not pass for one made at once.
    const pub = client(emu(), { subject: 'offline_pub' }, { backoff: { baseMs: 60_000, capMs: 60_000 } })
    const sub = client(emu(), { subject: 'offline_sub' })
    const got = collect(sub, 'offline:1')
    pub.connect()
    await untilState(pub, 'connected')
    await untilSubscribed(sub.channel('offline:1'))
    const states: StateChange[] = []
    pub.on('state', (s) => states.push(s))
    const total = emu().realtime.stats.connections.total

    goOffline()
    expect(pub.state).toBe('disconnected')
    expect(states.at(-1)).toMatchObject({ current: 'disconnected', reason: 'offline' })
    const ack = pub.channel('offline:1').publish('n', 'sent while offline')
    // No attempt while offline (bounded look: nothing opens within 300 ms).
    await expect(
      emu().realtime.waitFor((e) => e?.type === 'open' && e.subject === 'offline_pub', { timeoutMs: 300 }),
    ).rejects.toThrow(/within/)
    expect(emu().realtime.stats.connections.total).toBe(total)

    // Back online: at once, although this client's backoff would wait a minute.
    goOnline()
    await untilState(pub, 'connected', Math.min(slack(4_000), 30_000))
    await expect(ack).resolves.toMatchObject({ offset: 1, duplicate: false })
    await got.count(1)
    expect(got.messages.map((m) => m.data)).toEqual(['sent while offline'])
    expect(emu().realtime.stats.publishes).toBeGreaterThanOrEqual(1)
  })

  it('starting offline: waits, then connects on online', async () => {
    online = false
    const a = client(emu(), { subject: 'offline_start' })
    a.connect()
    await untilState(a, 'disconnected')
    expect(a.stats.tokens).toBe(0)
    goOnline()
    await untilState(a, 'connected')
  })

  it('visible or online while connected: a ping checks the link; no pong within grace → reconnect', async () => {
    const a = client(emu(), { subject: 'ping_check' })
    a.connect()
    await untilState(a, 'connected')
    const pings = emu().realtime.stats.framesIn.ping ?? 0
    document.dispatchEvent(new window.Event('visibilitychange'))
    await emu().realtime.waitFor(() => (emu().realtime.stats.framesIn.ping ?? 0) === pings + 1)
    expect(a.state).toBe('connected')
    emu().realtime.blackhole('ping_check')
    const states: StateChange[] = []
    a.on('state', (s) => states.push(s))
    window.dispatchEvent(new window.Event('online'))
    await until(
      (cb) => a.on('state', cb),
      () => states.some((s) => s.current === 'connected'),
    )
    // grace = min(10 s, heartbeatMs): the ping check answers before the heartbeat watchdog would, which
    // the reason says (a link noticed by the watchdog reconnects with heartbeat_timeout), on any machine.
    expect(states[0]).toMatchObject({ current: 'reconnecting', reason: 'ping_timeout' })
  })
})
