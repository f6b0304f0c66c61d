// The paged message store (createMessageLog) against the emulator: history on join merged with live
// messages once each, earlier pages, the bound, a reset when the last listener goes, and errors.
import { until } from '../../../../../test/utils/wait.js'
import { describe, expect, it } from 'vitest'
import { createMessageLog, type MessageLog, type Schedule } from '../../index.js'
import { client, useEmulator } from '../helpers.js'

const emu = useEmulator({ realtime: { historySize: 5_000, historyTtlMs: 600_000 } })
/** Tells listeners at once: the test reads every change, with no animation frames in Node. */
const now: Schedule = (flush) => {
  queueMicrotask(flush)
  return () => {}
}

/** Publishes `n` messages server-side (no bucket), `text` numbered from `from`. */
const seed = (channel: string, n: number, event = 'message', from = 1) => {
  for (let i = 0; i < n; i++) emu().realtime.publish(channel, event, { i: from + i })
}

function watch<T>(log: MessageLog<T>) {
  const off = log.subscribe(() => {})
  const until_ = (check: () => boolean, what: string) =>
    until((cb) => log.subscribe(cb), check, 5_000, `${what} (have ${log.getSnapshot().messages.length})`)
  return { off, until: until_, offsets: () => log.getSnapshot().messages.map((m) => m.offset) }
}

describe('createMessageLog', () => {
  it('joins with the newest `initial` from history, then every live message once, in order', async () => {
    seed('log:join', 120)
    const rt = client(emu())
    const log = createMessageLog(rt, 'log:join', { initial: 30, schedule: now })
    const w = watch(log)
    await w.until(() => log.getSnapshot().messages.length === 30 && !log.getSnapshot().loading, 'the first page')
    expect(w.offsets()).toEqual(Array.from({ length: 30 }, (_, i) => 91 + i))
    expect(log.getSnapshot().hasEarlier).toBe(true)
    seed('log:join', 10, 'message', 121)
    await w.until(() => log.getSnapshot().messages.length === 40, 'live messages')
    expect(w.offsets()).toEqual(Array.from({ length: 40 }, (_, i) => 91 + i))
    w.off()
  })

  it('live messages that arrive while history is read are neither lost nor doubled', async () => {
    seed('log:race', 50)
    const rt = client(emu())
    const log = createMessageLog(rt, 'log:race', { initial: 100, schedule: now })
    const w = watch(log) // its 'subscribed' listener comes first: the history request is on its way…
    // …when these are published, in the same tick: they reach the client live AND are in the history answer.
    const off = rt
      .channel('log:race')
      .on('state', ({ current }) => current === 'subscribed' && seed('log:race', 200, 'message', 51))
    await w.until(() => w.offsets().at(-1) === 250 && !log.getSnapshot().loading, 'message 250')
    off()
    expect(w.offsets()).toEqual(Array.from({ length: 250 - w.offsets()[0]! + 1 }, (_, i) => w.offsets()[0]! + i))
    expect(log.getSnapshot().hasEarlier).toBe(w.offsets()[0]! > 1)
    while (log.getSnapshot().hasEarlier) await log.loadEarlier(100)
    expect(w.offsets()).toEqual(Array.from({ length: 250 }, (_, i) => i + 1))
    w.off()
  })

  it('loadEarlier pages back through history until offset 1; the event filter holds', async () => {
    for (let i = 1; i <= 90; i++) emu().realtime.publish('log:pages', i % 3 === 0 ? 'typing' : 'message', { i })
    const rt = client(emu())
    const log = createMessageLog(rt, 'log:pages', { event: 'message', initial: 20, schedule: now })
    const w = watch(log)
    await w.until(() => !log.getSnapshot().loading && log.getSnapshot().messages.length > 0, 'the first page')
    // The newest 20 offsets (71–90), less the `typing` ones.
    expect(w.offsets()).toEqual(Array.from({ length: 20 }, (_, i) => 71 + i).filter((o) => o % 3 !== 0))
    while (log.getSnapshot().hasEarlier) await log.loadEarlier(25)
    expect(w.offsets()).toEqual(Array.from({ length: 90 }, (_, i) => i + 1).filter((o) => o % 3 !== 0))
    expect(log.getSnapshot().messages.every((m) => m.event === 'message')).toBe(true)
    expect(log.getSnapshot().error).toBeUndefined()
    w.off()
  })

  it('holds at most `max`: live messages push the oldest out, and loadEarlier never goes past it', async () => {
    seed('log:max', 10)
    const rt = client(emu())
    const log = createMessageLog(rt, 'log:max', { initial: 10, max: 25, schedule: now })
    const w = watch(log)
    await w.until(() => log.getSnapshot().messages.length === 10 && !log.getSnapshot().loading, 'the first page')
    seed('log:max', 30, 'message', 11)
    await w.until(() => w.offsets().at(-1) === 40, 'live messages')
    expect(w.offsets()).toEqual(Array.from({ length: 25 }, (_, i) => 16 + i))
    expect(log.getSnapshot().hasEarlier).toBe(false) // full: no room for earlier ones
    await log.loadEarlier(10)
    expect(w.offsets()[0]).toBe(16)
    w.off()
  })

  it('forgets its messages when the last listener goes, and starts over from history with the next', async () => {
    seed('log:reset', 5)
    const rt = client(emu())
    const log = createMessageLog(rt, 'log:reset', { initial: 50, schedule: now })
    const a = watch(log)
    await a.until(() => log.getSnapshot().messages.length === 5 && !log.getSnapshot().loading, 'the first page')
    a.off()
    expect(log.getSnapshot().messages).toEqual([])
    seed('log:reset', 3, 'message', 6) // published while nobody listened: history brings them back
    const b = watch(log)
    await b.until(() => log.getSnapshot().messages.length === 8 && !log.getSnapshot().loading, 'history again')
    expect(b.offsets()).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    b.off()
  })

  it('a refused history read lands in `error` (with its code), never as an unhandled rejection', async () => {
    seed('log:denied', 5)
    const rt = client(emu(), { scope: ['realtime:subscribe:other:*'] })
    const log = createMessageLog(rt, 'log:denied', { schedule: now })
    const w = watch(log)
    await w.until(() => log.getSnapshot().error !== undefined, 'a refusal')
    expect(log.getSnapshot().error).toMatchObject({
      name: 'RealtimeError',
      code: expect.stringMatching(/forbidden|denied|scope/),
    })
    w.off()
    expect(() => createMessageLog(rt, 'x', { initial: -1 })).toThrow(/initial/)
    expect(() => createMessageLog(rt, 'x', { max: 1.5 })).toThrow(/max/)
    await expect(log.loadEarlier(5000)).rejects.toThrow(/count/)
  })
})
