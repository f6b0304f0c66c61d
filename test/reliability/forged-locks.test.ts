// Issue 43, row 3: soft locks a hostile cannot forge, and forged lock data no watcher spins on.
// (1) Against the emulator: an honest agent holds a conversation's lock; a hostile member claims it
// back-dated (`acquiredAt` a minute before, `ttlMs` 600,000, within the schema), with `acquiredAt:
// 0, ttlMs: 9e15` (refused) and with the holder's own `acquiredAt`. The service stamps every new
// claim with its own clock, so a third agent's `resourcePresence` sees the honest holder
// throughout, and the hostile's claim only after the honest one lets go. (2) A hand-written
// hostile service (no emulator) feeds two watchers members whose locks break the contract (ttlMs
// 9e15, a negative or fractional acquiredAt, 1e300): they show no lock, and for one within the
// contract but stamped 31 years ahead they set no timer past 2^31-1 ms (no
// TimeoutOverflowWarning): no watcher spins.
import type { AddressInfo } from 'node:net'
import { LOCK_TTL_MAX, resourcePresenceChannel } from '@tandem/contract'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { createRealtime, type Member, type Realtime } from '@tandem/realtime'
import { collectionPresence, resourcePresence, type ResourcePresence } from '@tandem/realtime/resource-presence'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { realtimeClient } from '../utils/harness.js'
import { connectRaw } from '../utils/raw-socket.js'
import { during, until } from '../utils/wait.js'

const PATH = 'support/conversations'
const PRESENCE = resourcePresenceChannel(PATH)
const ID = 'cnv_locked'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

const untilSnapshot = (
  h: ResourcePresence,
  check: (s: ReturnType<ResourcePresence['getSnapshot']>) => boolean,
  what: string,
) => until(h.subscribe, () => check(h.getSnapshot()), 10_000, what)

interface Lock {
  id: string
  acquiredAt: number
  ttlMs: number
}

describe('forged soft locks', () => {
  it('a back-dated claim does not take the lock from its holder; ttlMs 9e15 is refused', async () => {
    const emu: Emulator = await startEmulator({ host: '127.0.0.1', port: 0 })
    cleanups.push(() => emu.close())
    const agent = (subject: string) => {
      const rt = realtimeClient(emu, { url: emu.url, subject })
      cleanups.push(() => rt.close())
      return rt
    }
    const honest = resourcePresence(agent('agt_honest'), PATH, ID)
    honest.lock({ ttlMs: 60_000 })
    const observer = resourcePresence(agent('agt_observer'), PATH, ID)
    const holders: string[] = []
    cleanups.push(observer.subscribe(() => void holders.push(observer.getSnapshot().lock?.holder.clientId ?? '-')))
    await untilSnapshot(observer, (s) => s.lock?.holder.clientId === 'agt_honest', 'the honest holder seen')

    const hostile = await connectRaw(emu.url, await emu.mintToken({ subject: 'agt_mallory', scope: ['realtime'] }))
    cleanups.push(() => hostile.close())
    await hostile.request({ type: 'subscribe', channels: [{ channel: PRESENCE }] })
    const claim = (lock: Lock) =>
      hostile.request({
        type: 'presence.update',
        channel: PRESENCE,
        data: { name: null, viewing: [ID], typing: [], locks: [lock] },
      })
    const forever = await claim({ id: ID, acquiredAt: 0, ttlMs: 9e15 })
    // A minute before the holder's claim, and not lapsed by anyone's clock: earlier, if clients said when.
    const backDated = await claim({ id: ID, acquiredAt: Date.now() - 60_000, ttlMs: LOCK_TTL_MAX })
    await untilSnapshot(observer, (s) => s.viewers.some((m) => m.clientId === 'agt_mallory'), 'the hostile member seen')
    const members = (await hostile.request({ type: 'presence.get', channel: PRESENCE })).members as Member[]
    const lockOf = (clientId: string) =>
      (members.find((m) => m.clientId === clientId)!.data as { locks: Lock[] }).locks[0]!
    const [mine, theirs] = [lockOf('agt_mallory'), lockOf('agt_honest')]
    // Again, naming the honest claim's stamp: a claim of its own is new, so stamped later still.
    const copied = await claim({ id: ID, acquiredAt: theirs.acquiredAt, ttlMs: LOCK_TTL_MAX })
    honest.lock({ ttlMs: 60_000 }) // a renewal keeps the honest claim's place
    await during(500)
    const stillHonest = observer.getSnapshot().lock?.holder.clientId
    console.info(
      `forged locks: ttlMs 9e15 → ${String(forever.type)} ${String((forever.error as { code?: string })?.code ?? '')}; ` +
        `back-dated 60 s → ${String(backDated.type)}, stamped ${mine.acquiredAt - theirs.acquiredAt} ms after the holder's; ` +
        `holder seen by the observer: ${stillHonest ?? 'none'} (holders over time: ${[...new Set(holders)].join(', ')})`,
    )
    expect(forever).toMatchObject({ type: 'error', error: { code: 'bad_request' } })
    expect(String((forever.error as { message: string }).message)).toContain('"data.locks[0].ttlMs"')
    expect(backDated.type).toBe('ok')
    expect(copied.type).toBe('ok')
    expect(mine.acquiredAt).toBeGreaterThan(theirs.acquiredAt)
    expect(stillHonest).toBe('agt_honest')
    expect(holders).not.toContain('agt_mallory')

    // The service's order: once the holder lets go, the next claim (the hostile's) holds.
    honest.unlock()
    await untilSnapshot(observer, (s) => s.lock?.holder.clientId === 'agt_mallory', 'the next claim holds')
  })

  it('a watcher fed forged locks by a hostile service shows none and does not spin', async () => {
    const now = Date.now()
    const forged: [id: string, lock: unknown][] = [
      ['cnv_forever', { acquiredAt: 0, ttlMs: 9e15 }],
      ['cnv_now_forever', { acquiredAt: now, ttlMs: 9e15 }],
      ['cnv_negative', { acquiredAt: -1, ttlMs: 60_000 }],
      ['cnv_fraction', { acquiredAt: 0.5, ttlMs: 60_000 }],
      ['cnv_far', { acquiredAt: 1e300, ttlMs: 60_000 }],
      ['cnv_tiny_ttl', { acquiredAt: now, ttlMs: 0.5 }],
      ['cnv_text', { acquiredAt: String(now), ttlMs: '60000' }],
      // Within the contract, stamped 31 years ahead: shown (a client cannot tell the service's clock), never spun on.
      ['cnv_future', { acquiredAt: now + 1e12, ttlMs: 60_000 }],
    ]
    const members: Member[] = forged.map(([id, lock], i) => ({
      clientId: `mallory_${i}`,
      connectionId: `conn_m${i}`,
      data: { name: 'Mallory', viewing: [id], typing: [], locks: [{ id, ...(lock as object) }] },
    }))
    const url = await hostileService(members)

    const warnings: Error[] = []
    const onWarning = (w: Error) => void (w.name === 'TimeoutOverflowWarning' && warnings.push(w))
    process.on('warning', onWarning)
    cleanups.push(() => process.off('warning', onWarning))
    const watchers = [watcher(url), watcher(url)]
    const rows = watchers.map((rt) => collectionPresence(rt, PATH))
    const handles = watchers.map((rt) => resourcePresence(rt, PATH, 'cnv_forever'))
    let notified = 0
    for (const store of [...rows, ...handles]) cleanups.push(store.subscribe(() => void notified++))
    for (const r of rows)
      await until(r.subscribe, () => r.getSnapshot().size === forged.length, 10_000, 'every forged row seen')

    // The window in which nothing may spin: timers set and notifications, counted.
    const timers = countTimers()
    const notifiedBefore = notified
    await during(2_000)
    const set = timers.stop()
    const locks = rows.flatMap((r) => [...r.getSnapshot()].filter(([, a]) => a.lockHolder !== null).map(([id]) => id))
    console.info(
      `forged locks at 2 watchers: ${set.total} timers set in 2 s (${set.overflowing} past 2^31-1 ms), ` +
        `${warnings.length} TimeoutOverflowWarnings, ${notified - notifiedBefore} notifications, locks shown: ${locks.join(', ') || 'none'}`,
    )
    expect(locks).toEqual(['cnv_future', 'cnv_future'])
    expect(handles.map((h) => h.getSnapshot().lock)).toEqual([null, null])
    expect(warnings).toEqual([])
    expect(set.overflowing).toBe(0)
    expect(set.total).toBeLessThanOrEqual(20) // a spinning watcher sets one per millisecond
    expect(notified - notifiedBefore).toBe(0)
  })
})

function watcher(url: string): Realtime {
  const rt = createRealtime(
    { auth: { fetchToken: async () => ({ token: 'tok', expiresIn: 600 }) }, url },
    { WebSocket },
  )
  cleanups.push(() => rt.close())
  return rt
}

/** Counts the timers set (and those asking past 2^31-1 ms) until `stop()`. */
function countTimers() {
  const original = globalThis.setTimeout
  const counts = { total: 0, overflowing: 0 }
  const counting = (...args: Parameters<typeof setTimeout>) => {
    counts.total++
    if (Number(args[1]) > 2 ** 31 - 1) counts.overflowing++
    return original(...args)
  }
  globalThis.setTimeout = Object.assign(counting, original) as typeof setTimeout
  const stop = () => {
    globalThis.setTimeout = original
    return counts
  }
  cleanups.push(stop)
  return { stop }
}

/** A service over a real WebSocket on 127.0.0.1 whose presence channel holds `members`. */
async function hostileService(members: Member[]): Promise<string> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  cleanups.push(() => new Promise((resolve) => wss.close(resolve)))
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  wss.on('connection', (socket) => {
    const send = (frame: Record<string, unknown>) => socket.send(JSON.stringify(frame))
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as {
        type: string
        id?: number
        channel?: string
        channels?: { channel: string }[]
      }
      if (frame.type === 'connect')
        send({
          type: 'connected',
          id: frame.id,
          connectionId: 'conn_watcher',
          heartbeatMs: 60_000,
          maxMessageBytes: 65_536,
          expiresIn: 600,
          resumed: false,
        })
      else if (frame.type === 'subscribe')
        send({
          type: 'subscribed',
          id: frame.id,
          channels: frame.channels?.map(({ channel }) => ({
            channel,
            epoch: 'e1',
            offset: 0,
            recovered: true,
            missed: [],
          })),
        })
      else if (frame.type === 'presence.get')
        send({ type: 'presence.members', id: frame.id, channel: PRESENCE, members })
      else if (frame.id !== undefined) send({ type: frame.type === 'ping' ? 'pong' : 'ok', id: frame.id })
    })
  })
  return `http://127.0.0.1:${(wss.address() as AddressInfo).port}/realtime`
}
