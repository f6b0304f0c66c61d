// createMessageLog where pages race live messages, filters hide whole pages, history fails and the
// channel loses messages: no hole, no duplicate, no stuck `hasEarlier`, no error that never clears.
import { until } from '../../../../../test/utils/wait.js'
import { describe, expect, it } from 'vitest'
import { createMessageLog, type MessageLog, type Schedule } from '../../index.js'
import { client, useEmulator } from '../helpers.js'
import { hostileClient, hostileServer, subscribedAll } from '../hostile-server.js'

const emu = useEmulator({ realtime: { historySize: 5_000, historyTtlMs: 600_000 } })
const now: Schedule = (flush) => {
  queueMicrotask(flush)
  return () => {}
}
const seed = (channel: string, n: number, event = 'message') => {
  for (let i = 0; i < n; i++) emu().realtime.publish(channel, event, { i })
}
const offsets = (log: MessageLog<unknown>) => log.getSnapshot().messages.map((m) => m.offset)
const contiguous = (o: number[]) => o.every((x, i) => i === 0 || x === o[i - 1]! + 1)
const watch = (log: MessageLog<unknown>) => {
  const off = log.subscribe(() => {})
  const wait = (check: () => boolean, what: string) => until((cb) => log.subscribe(cb), check, 5_000, what)
  return { off, wait }
}

describe('createMessageLog under faults', () => {
  it('live messages that push the oldest out while an earlier page is read leave no hole and never exceed max', async () => {
    seed('fault:trim', 40)
    const rt = client(emu())
    const log = createMessageLog(rt, 'fault:trim', { initial: 10, max: 25, schedule: now })
    const w = watch(log)
    await w.wait(() => log.getSnapshot().loaded && !log.getSnapshot().loading, 'the first page')
    expect(offsets(log)).toEqual(Array.from({ length: 10 }, (_, i) => 31 + i))
    // The page 26–30 is asked for; 20 live messages reach the client before its answer.
    const page = log.loadEarlier(5)
    seed('fault:trim', 20)
    await page
    await w.wait(() => offsets(log).at(-1) === 60 && !log.getSnapshot().loading, 'the live messages')
    const o = offsets(log)
    expect(o.length).toBeLessThanOrEqual(25)
    expect(contiguous(o)).toBe(true)
    expect(o.at(-1)).toBe(60)
    w.off()
  })

  it('pages that hold only other events move the cursor on: loadEarlier reaches the first message', async () => {
    seed('fault:filter', 30, 'message')
    seed('fault:filter', 60, 'typing') // the newest 60 are all of another event
    const rt = client(emu())
    const log = createMessageLog(rt, 'fault:filter', { event: 'message', initial: 20, schedule: now })
    const w = watch(log)
    await w.wait(() => log.getSnapshot().loaded && !log.getSnapshot().loading, 'the first page')
    expect(log.getSnapshot().messages).toEqual([])
    expect(log.getSnapshot().hasEarlier).toBe(true)
    for (let i = 0; i < 20 && log.getSnapshot().hasEarlier; i++) await log.loadEarlier(20)
    expect(log.getSnapshot().hasEarlier).toBe(false)
    expect(offsets(log)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
    w.off()
  })

  it('messages lost to a discontinuity: the log starts over from history instead of keeping a hole', async () => {
    seed('fault:gap', 10)
    const rt = client(emu(), { subject: 'gap-reader' })
    const log = createMessageLog(rt, 'fault:gap', { initial: 50, schedule: now })
    const w = watch(log)
    await w.wait(() => offsets(log).length === 10 && !log.getSnapshot().loading, 'the first page')
    const gaps: string[] = []
    rt.channel('fault:gap').on('discontinuity', (d) => gaps.push(d.reason))
    // Away while 20 are published and history keeps only the last 5: 11–25 are gone for good.
    rt.on('state', ({ current }) => {
      if (current !== 'reconnecting') return
      seed('fault:gap', 20)
      emu().realtime.trimHistory('fault:gap', 5)
    })
    emu().realtime.dropConnections({ subject: 'gap-reader' })
    await w.wait(() => gaps.length === 1 && offsets(log).at(-1) === 30 && !log.getSnapshot().loading, 'the resume')
    expect(gaps).toEqual(['history_expired'])
    expect(offsets(log)).toEqual([26, 27, 28, 29, 30])
    expect(log.getSnapshot().hasEarlier).toBe(false)
    w.off()
  })

  it('a failed first page says why, offers loadEarlier as its retry, and clears the error when it succeeds', async () => {
    let histories = 0
    const server = await hostileServer({
      request(peer, frame) {
        if (frame.type === 'subscribe') subscribedAll(peer, frame)
        else if (frame.type === 'history' && ++histories === 1)
          peer.send({ type: 'error', id: frame.id, error: { code: 'internal_error', message: 'try again' } })
        else if (frame.type === 'history')
          peer.send({
            type: 'history',
            id: frame.id,
            channel: 'h:1',
            epoch: 'e1',
            offset: 2,
            complete: true,
            messages: [1, 2].map((offset) => ({
              type: 'message',
              channel: 'h:1',
              event: 'n',
              data: offset,
              epoch: 'e1',
              offset,
              messageId: `m${offset}`,
              ts: 0,
            })),
          })
      },
    })
    const rt = hostileClient(server)
    const log = createMessageLog(rt, 'h:1', { schedule: now })
    const w = watch(log)
    await w.wait(() => log.getSnapshot().error !== undefined && !log.getSnapshot().loading, 'the failure')
    expect(log.getSnapshot()).toMatchObject({ loaded: false, hasEarlier: true, error: { code: 'internal_error' } })
    await log.loadEarlier()
    await w.wait(() => log.getSnapshot().loaded && !log.getSnapshot().loading, 'the retry')
    expect(offsets(log)).toEqual([1, 2])
    expect(log.getSnapshot().error).toBeUndefined()
    expect(log.getSnapshot().hasEarlier).toBe(false)
    w.off()
  })
})
