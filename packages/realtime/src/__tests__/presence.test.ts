import { until } from '../../../../test/utils/wait.js'
import type { Emulator } from '@tandem/emulator'
import { describe, expect, it } from 'vitest'
import type { PresenceEvent } from '../types.js'
import { client, untilState, useEmulator } from './helpers.js'

const GRACE = 200
const emu = useEmulator({ realtime: { presenceGraceMs: GRACE } })
// Presence is gone before any reconnect can resume it.
const noGrace = useEmulator({ realtime: { presenceGraceMs: 1 } })

function watcher(e: Emulator, channel: string) {
  const b = client(e, { subject: 'watcher' })
  const events: PresenceEvent[] = []
  const ch = b.channel(channel)
  ch.presence.subscribe((ev) => events.push(ev))
  const wait = (check: (evs: PresenceEvent[]) => boolean, timeoutMs = 5_000) =>
    until(
      (cb) => ch.presence.subscribe(cb),
      () => check(events),
      timeoutMs,
      'presence events',
    )
  return { b, ch, events, wait }
}

describe('presence', () => {
  it('enter, update, get, leave', async () => {
    const w = watcher(emu(), 'pr:basic')
    const a = client(emu(), { subject: 'alice' })
    await a.channel('pr:basic').presence.enter({ name: 'Alice' })
    await w.wait((evs) => evs.some((e) => e.action === 'enter'))
    expect(w.events[0]).toMatchObject({
      channel: 'pr:basic',
      action: 'enter',
      member: { clientId: 'alice', data: { name: 'Alice' } },
    })
    await a.channel('pr:basic').presence.update({ name: 'Alice', typing: true })
    await w.wait((evs) => evs.some((e) => e.action === 'update'))
    const members = await w.ch.presence.get()
    expect(members.map((m) => [m.clientId, m.data])).toEqual([['alice', { name: 'Alice', typing: true }]])
    await a.channel('pr:basic').presence.leave()
    await w.wait((evs) => evs.some((e) => e.action === 'leave'))
    expect(await w.ch.presence.get()).toEqual([])
    expect(a.channel('pr:basic').state).toBe('unsubscribed') // presence held the only lease
  })

  it("cleans up when a member's socket dies (after presenceGraceMs)", async () => {
    const w = watcher(emu(), 'pr:dies')
    // This client would wait ~5 s before reconnecting: it is closed before then, so its presence must expire.
    const a = client(emu(), { subject: 'doomed' }, { backoff: { baseMs: 5_000, capMs: 5_000 }, random: () => 0.99 })
    await a.channel('pr:dies').presence.enter({ n: 1 })
    await w.wait((evs) => evs.some((e) => e.action === 'enter'))
    const died = Date.now()
    emu().realtime.dropConnections({ subject: 'doomed', raw: true })
    await untilState(a, 'reconnecting')
    a.close()
    await w.wait((evs) => evs.some((e) => e.action === 'leave'))
    expect(Date.now() - died).toBeGreaterThanOrEqual(GRACE - 20)
    expect(w.events.at(-1)).toMatchObject({ action: 'leave', member: { clientId: 'doomed' } })
    expect(await w.ch.presence.get()).toEqual([])
  })

  it('a reconnect within the grace resumes presence: no leave, no enter', async () => {
    const w = watcher(emu(), 'pr:resume')
    const a = client(emu(), { subject: 'resumer' })
    await a.channel('pr:resume').presence.enter({ n: 1 })
    await w.wait((evs) => evs.length === 1)
    const reasons: (string | undefined)[] = []
    a.on('state', (s) => reasons.push(s.reason))
    emu().realtime.dropConnections({ subject: 'resumer' })
    await until(
      (cb) => a.on('state', cb),
      () => a.state === 'connected' && reasons.length > 1,
    )
    expect(reasons.at(-1)).toBe('resumed')
    const members = await w.ch.presence.get()
    expect(members.map((m) => m.clientId)).toEqual(['resumer'])
    expect(w.events.map((e) => e.action)).toEqual(['enter'])
  })

  it('re-enters by itself after a reconnect that did not keep presence', async () => {
    const w = watcher(noGrace(), 'pr:reenter')
    const a = client(noGrace(), { subject: 'returner' })
    await a.channel('pr:reenter').presence.enter({ back: true })
    await w.wait((evs) => evs.length === 1)
    noGrace().realtime.dropConnections({ subject: 'returner' })
    await w.wait((evs) => evs.map((e) => e.action).join() === 'enter,leave,enter')
    expect(w.events.at(-1)).toMatchObject({ action: 'enter', member: { clientId: 'returner', data: { back: true } } })
    const members = await w.ch.presence.get()
    expect(members.map((m) => m.clientId)).toEqual(['returner'])
  })
})
