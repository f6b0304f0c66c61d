import { slack, until } from '../../../../../test/utils/wait.js'
import { describe, expect, it } from 'vitest'
import type { StateChange } from '../../types.js'
import { client, collect, untilState, untilSubscribed, useEmulator } from '../helpers.js'

const HEARTBEAT = 300
const emu = useEmulator({ realtime: { heartbeatMs: HEARTBEAT } })

describe('half-open links', () => {
  it('blackhole: the watchdog reconnects within heartbeatMs + grace, and the channel resumes', async () => {
    const pub = client(emu(), { subject: 'bh_pub' })
    const a = client(emu(), { subject: 'bh' })
    const got = collect(a, 'bh:1')
    await untilSubscribed(a.channel('bh:1'))
    await pub.channel('bh:1').publish('n', 1)
    await got.count(1)
    const states: StateChange[] = []
    a.on('state', (s) => states.push(s))
    const before = a.connectionId
    const started = Date.now()
    emu().realtime.blackhole('bh')
    await pub.channel('bh:1').publish('n', 2) // lost in the black hole, recovered by the resume
    // heartbeatMs + grace (grace = min(10 s, heartbeatMs)): 600 ms and a watchdog tick. A bounded wait
    // for it, far under the 10 s grace a watchdog that ignored heartbeatMs would give.
    await until(
      (cb) => a.on('state', cb),
      () => states.some((s) => s.current === 'reconnecting'),
      Math.min(slack(2 * HEARTBEAT + 1_000), 8_000),
      'the watchdog noticed',
    )
    expect(states[0]).toMatchObject({ current: 'reconnecting', reason: 'heartbeat_timeout' })
    expect(Date.now() - started).toBeGreaterThanOrEqual(HEARTBEAT) // a lower bound: the watchdog's own
    await untilState(a, 'connected')
    expect(a.connectionId).toBeDefined()
    await got.count(2)
    expect(got.messages.map((m) => m.data)).toEqual([1, 2])
    expect(before).toMatch(/^conn_/)
  })

  it('paused heartbeats look the same: no frame for heartbeatMs + grace is a dead link', async () => {
    const a = client(emu(), { subject: 'quiet' })
    a.connect()
    await untilState(a, 'connected')
    const reasons: (string | undefined)[] = []
    a.on('state', (s) => reasons.push(s.reason))
    emu().realtime.pauseHeartbeats()
    try {
      await until(
        (cb) => a.on('state', cb),
        () => reasons.includes('heartbeat_timeout'),
        3_000,
      )
    } finally {
      emu().realtime.resumeHeartbeats()
    }
    await untilState(a, 'connected')
  })
})
