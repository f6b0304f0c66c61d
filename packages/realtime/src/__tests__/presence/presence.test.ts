import { until } from '../../../../../test/utils/wait.js'
import type { Emulator } from '@tandem/emulator'
import { describe, expect, it } from 'vitest'
import { isValidationError } from '@tandem/core'
import type { Channel, Member, Message, PresenceEvent } from '../../types.js'
import { client, untilState, untilSubscribed, useEmulator } from '../helpers.js'
import { history } from '../../history.js'
import { presence } from '../../presence/presence.js'
import { presenceStore } from '../../presence/presence-store.js'

const GRACE = 200
const emu = useEmulator({ realtime: { presenceGraceMs: GRACE } })
// Presence is gone before any reconnect can resume it.
const noGrace = useEmulator({ realtime: { presenceGraceMs: 1 } })
// Presence outlives a dead socket for a minute: a leave seen sooner was sent.
const slowGrace = useEmulator({ realtime: { presenceGraceMs: 60_000 } })

function watcher(e: Emulator, channel: string) {
  const b = client(e, { subject: 'watcher' })
  const events: PresenceEvent[] = []
  const ch = b.channel(channel)
  presence(ch).subscribe((ev) => events.push(ev))
  const wait = (check: (evs: PresenceEvent[]) => boolean, timeoutMs = 5_000) =>
    until(
      (cb) => presence(ch).subscribe(cb),
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
    await presence(a.channel('pr:basic')).enter({ name: 'Alice' })
    await w.wait((evs) => evs.some((e) => e.action === 'enter'))
    expect(w.events[0]).toMatchObject({
      channel: 'pr:basic',
      action: 'enter',
      member: { clientId: 'alice', data: { name: 'Alice' } },
    })
    await presence(a.channel('pr:basic')).update({ name: 'Alice', typing: true })
    await w.wait((evs) => evs.some((e) => e.action === 'update'))
    const members = await presence(w.ch).get()
    expect(members.map((m) => [m.clientId, m.data])).toEqual([['alice', { name: 'Alice', typing: true }]])
    await presence(a.channel('pr:basic')).leave()
    await w.wait((evs) => evs.some((e) => e.action === 'leave'))
    expect(await presence(w.ch).get()).toEqual([])
    expect(a.channel('pr:basic').state).toBe('unsubscribed') // presence held the only lease
  })

  it("cleans up when a member's socket dies (after presenceGraceMs)", async () => {
    const w = watcher(emu(), 'pr:dies')
    // This client would wait ~5 s before reconnecting: it is closed before then, so its presence must expire.
    const a = client(emu(), { subject: 'doomed' }, { backoff: { baseMs: 5_000, capMs: 5_000 }, random: () => 0.99 })
    await presence(a.channel('pr:dies')).enter({ n: 1 })
    await w.wait((evs) => evs.some((e) => e.action === 'enter'))
    const died = Date.now()
    emu().realtime.dropConnections({ subject: 'doomed', raw: true })
    await untilState(a, 'reconnecting')
    a.close()
    await w.wait((evs) => evs.some((e) => e.action === 'leave'))
    expect(Date.now() - died).toBeGreaterThanOrEqual(GRACE - 20)
    expect(w.events.at(-1)).toMatchObject({ action: 'leave', member: { clientId: 'doomed' } })
    expect(await presence(w.ch).get()).toEqual([])
  })

  it('a reconnect within the grace resumes presence: no leave, no enter', async () => {
    const w = watcher(emu(), 'pr:resume')
    const a = client(emu(), { subject: 'resumer' })
    await presence(a.channel('pr:resume')).enter({ n: 1 })
    await w.wait((evs) => evs.length === 1)
    const reasons: (string | undefined)[] = []
    a.on('state', (s) => reasons.push(s.reason))
    emu().realtime.dropConnections({ subject: 'resumer' })
    await until(
      (cb) => a.on('state', cb),
      () => a.state === 'connected' && reasons.length > 1,
    )
    expect(reasons.at(-1)).toBe('resumed')
    const members = await presence(w.ch).get()
    expect(members.map((m) => m.clientId)).toEqual(['resumer'])
    expect(w.events.map((e) => e.action)).toEqual(['enter'])
  })

  it('re-enters by itself after a reconnect that did not keep presence', async () => {
    const w = watcher(noGrace(), 'pr:reenter')
    const a = client(noGrace(), { subject: 'returner' })
    await presence(a.channel('pr:reenter')).enter({ back: true })
    await w.wait((evs) => evs.length === 1)
    noGrace().realtime.dropConnections({ subject: 'returner' })
    await w.wait((evs) => evs.map((e) => e.action).join() === 'enter,leave,enter')
    expect(w.events.at(-1)).toMatchObject({ action: 'enter', member: { clientId: 'returner', data: { back: true } } })
    const members = await presence(w.ch).get()
    expect(members.map((m) => m.clientId)).toEqual(['returner'])
  })
})

// Presence is an entry of its own: a channel has none until `presence(channel)` makes it, which
// may be long after the channel was subscribed (for messages) and after members came and went.
describe('presence attached to a channel already subscribed', () => {
  it('gives the members already there, every event from then on, and stays one object per channel', async () => {
    const w = client(emu(), { subject: 'watcher' })
    const ch = w.channel('pr:late')
    const seen: Message[] = []
    ch.subscribe((m) => seen.push(m))
    await untilSubscribed(ch)
    const a = client(emu(), { subject: 'early' })
    await presence(a.channel('pr:late')).enter({ n: 1 })
    // The service sends the enter's event before the message published after it: once the message
    // is here, the event came while the channel had no presence.
    await a.channel('pr:late').publish('after-enter', null)
    await until(
      (cb) => ch.subscribe(cb),
      () => seen.length === 1,
      5_000,
      'the message after the enter',
    )
    const late = presence(ch)
    expect(presence(ch), 'made once, kept by the channel').toBe(late)
    expect((await late.get()).map((m) => [m.clientId, m.data])).toEqual([['early', { n: 1 }]])
    const store = presenceStore(ch, { schedule: (flush) => (queueMicrotask(flush), () => {}) })
    let members: readonly Member[] = []
    const events: PresenceEvent[] = []
    const offs = [late.subscribe((e) => events.push(e)), store.subscribe(() => (members = store.getSnapshot()))]
    await until(
      (cb) => store.subscribe(cb),
      () => members.length === 1,
      5_000,
      'the store synced',
    )
    await presence(a.channel('pr:late')).update({ n: 2 })
    await until(
      (cb) => late.subscribe(cb),
      () => events.some((e) => e.action === 'update'),
      5_000,
      'the update after attaching',
    )
    await until(
      (cb) => store.subscribe(cb),
      () => (members[0]?.data as { n?: number } | undefined)?.n === 2,
      5_000,
      'the store followed the update',
    )
    expect(events.map((e) => [e.action, e.member.clientId])).toEqual([['update', 'early']])
    offs.forEach((off) => off())
  })

  it('re-enters after a reconnect that did not keep it, though made after the subscribe', async () => {
    const w = watcher(noGrace(), 'pr:late-reenter')
    const a = client(noGrace(), { subject: 'later' })
    const ch = a.channel('pr:late-reenter')
    ch.subscribe(() => {})
    await untilSubscribed(ch)
    await presence(ch).enter({ late: true })
    await w.wait((evs) => evs.length === 1)
    noGrace().realtime.dropConnections({ subject: 'later' })
    await w.wait((evs) => evs.map((e) => e.action).join() === 'enter,leave,enter')
    expect(w.events.at(-1)).toMatchObject({ action: 'enter', member: { clientId: 'later', data: { late: true } } })
  })

  it('close() leaves the presence made through the entry at once, not after the grace', async () => {
    const slow = slowGrace()
    const w = watcher(slow, 'pr:close')
    const a = client(slow, { subject: 'closer' })
    await presence(a.channel('pr:close')).enter({})
    await w.wait((evs) => evs.length === 1)
    a.close()
    // The grace is 60 s: only an explicit leave can be seen within the wait.
    await w.wait((evs) => evs.at(-1)?.action === 'leave')
  })

  it('refuses, by name, a channel that did not come from rt.channel()', async () => {
    const fake = { name: 'pr:fake' } as Channel
    let thrown: unknown
    try {
      presence(fake)
    } catch (e) {
      thrown = e
    }
    expect(isValidationError(thrown) && thrown.field).toBe('channel')
    const refused = await history(fake).catch((e: unknown) => e)
    expect(isValidationError(refused) && refused.field).toBe('channel')
  })
})
