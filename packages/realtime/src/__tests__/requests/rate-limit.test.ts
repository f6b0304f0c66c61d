import { describe, expect, it } from 'vitest'
import type { StateChange } from '../../types.js'
import { client, collect, untilSubscribed, useEmulator } from '../helpers.js'

const emu = useEmulator({ realtime: { publishRate: { limit: 100, intervalMs: 1_000, burst: 40 } } })

describe('rate limits', () => {
  it('a burst beyond the bucket is retried after retryAfterMs (refusals and 4290 alike): every publish stored exactly once', async () => {
    const sub = client(emu(), { subject: 'rl_sub' })
    const got = collect(sub, 'rl:1')
    await untilSubscribed(sub.channel('rl:1'))
    const a = client(emu(), { subject: 'rl_pub' })
    a.connect()
    await new Promise<void>((resolve) => a.on('state', (s) => s.current === 'connected' && resolve()))
    const states: StateChange[] = []
    a.on('state', (s) => states.push(s))
    const n = 120
    const acks = await Promise.all(Array.from({ length: n }, (_, i) => a.channel('rl:1').publish('n', i)))
    expect(new Set(acks.map((x) => x.offset)).size).toBe(n)
    await got.count(n)
    // Refused publishes are retried later, so they may land after later ones (documented).
    expect(got.messages.map((m) => m.data).sort((x, y) => (x as number) - (y as number))).toEqual(
      Array.from({ length: n }, (_, i) => i),
    )
    expect(got.messages.map((m) => m.offset)).toEqual(Array.from({ length: n }, (_, i) => i + 1))
    const closes = states.filter((s) => s.reason === 'rate_limited')
    for (const c of closes) expect(c.retryInMs).toBeGreaterThan(0)
  })
})
