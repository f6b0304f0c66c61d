// The dedupe and resume bookkeeping of one channel, against a fake channel client.
import { describe, expect, it, vi } from 'vitest'
import { createChannel, type ChannelClient } from '../../channels/channel.js'
import { FILL_ATTEMPTS, HELD } from '../../defaults.js'
import { createHeldBudget } from '../../channels/held.js'
import type { Discontinuity } from '../../types.js'

/** Frames as this fake channel client sees them: loose, since some are malformed on purpose. */
type Frame = { type: string; [field: string]: unknown }

const msg = (offset: number, epoch = 'e1') => ({
  type: 'message' as const,
  channel: 'c',
  event: 'n',
  data: offset,
  offset,
  epoch,
  messageId: `m${offset}`,
  ts: 0,
})

function setup(history?: (frame: Frame) => Promise<Frame>, retryDelay = () => 0) {
  const requests: Frame[] = []
  const client = {
    requests,
    request: vi.fn(async (frame: Frame) => {
      requests.push(frame)
      if (history && frame.type === 'history') return history(frame)
      return { type: 'ok' }
    }) as unknown as ChannelClient['request'],
    publish: vi.fn() as unknown as ChannelClient['publish'],
    changed: vi.fn(),
    error: vi.fn(),
    held: createHeldBudget(HELD.max, HELD.maxBytes),
    retryDelay,
  }
  const ch = createChannel('c', client)
  const seen: string[] = []
  const off = ch.subscribe((m) => seen.push(`${m.epoch}:${m.offset}`))
  ch.on('discontinuity', (d: Discontinuity) =>
    seen.push(`gap ${d.reason} ${d.since.offset}→${d.resumedAt.epoch}:${d.resumedAt.offset}`),
  )
  return { client, ch, seen, off }
}

describe('channel bookkeeping', () => {
  it('holds live messages until subscribed, drops what it has seen, keeps order', () => {
    const { ch, seen, client } = setup()
    expect(ch.state).toBe('subscribing')
    expect(client.changed).toHaveBeenCalledOnce()
    ch.message(msg(3))
    ch.subscribed({ channel: 'c', epoch: 'e1', offset: 2, recovered: true, missed: [] })
    ch.message(msg(3))
    ch.message(msg(2))
    ch.message(msg(4))
    expect(seen).toEqual(['e1:3', 'e1:4'])
    expect(ch.position).toEqual({ epoch: 'e1', offset: 4 })
  })

  it('one pass over the listeners per message: in the order they subscribed, an event filter or not', () => {
    const { ch, seen } = setup() // its own listener first: every event
    ch.subscribe('n', (m) => seen.push(`n ${m.offset}`))
    ch.subscribe('other', (m) => seen.push(`other ${m.offset}`))
    ch.subscribe((m) => seen.push(`all ${m.offset}`))
    ch.subscribed({ channel: 'c', epoch: 'e1', offset: 0, recovered: true, missed: [] })
    ch.message(msg(1))
    expect(seen).toEqual(['e1:1', 'n 1', 'all 1'])
  })

  it('resume: missed in order, duplicates of live and missed dropped', () => {
    const { ch, seen } = setup()
    ch.subscribed({ channel: 'c', epoch: 'e1', offset: 1, recovered: true, missed: [] })
    ch.message(msg(2))
    ch.suspend()
    ch.message(msg(3)) // a late frame of the old connection is held, then deduplicated
    ch.subscribed({ channel: 'c', epoch: 'e1', offset: 5, recovered: true, missed: [msg(3), msg(4), msg(5)] })
    ch.message(msg(5))
    ch.message(msg(6))
    expect(seen).toEqual(['e1:2', 'e1:3', 'e1:4', 'e1:5', 'e1:6'])
  })

  it('not recovered: the discontinuity comes before any message after the gap', () => {
    const { ch, seen } = setup()
    ch.subscribed({ channel: 'c', epoch: 'e1', offset: 1, recovered: true, missed: [] })
    ch.suspend()
    ch.subscribed({ channel: 'c', epoch: 'e1', offset: 9, recovered: false, missed: [msg(7), msg(8), msg(9)] })
    ch.suspend()
    ch.subscribed({ channel: 'c', epoch: 'e2', offset: 0, recovered: false, missed: [] })
    ch.message(msg(1, 'e2'))
    expect(seen).toEqual(['gap history_expired 1→e1:6', 'e1:7', 'e1:8', 'e1:9', 'gap epoch_changed 9→e2:0', 'e2:1'])
  })

  it('a live gap is filled from history; what history cannot fill is a discontinuity', async () => {
    let complete = true
    let lost = false
    const { ch, seen, client } = setup(async () => {
      if (lost) return { type: 'history', epoch: 'e1', offset: 8, complete: true, messages: [] }
      return complete
        ? { type: 'history', epoch: 'e1', offset: 4, complete, messages: [msg(2), msg(3), msg(4)] }
        : { type: 'history', epoch: 'e1', offset: 8, complete, messages: [msg(7), msg(8)] }
    })
    ch.subscribed({ channel: 'c', epoch: 'e1', offset: 1, recovered: true, missed: [] })
    ch.message(msg(4))
    ch.message(msg(5)) // held while the fill runs
    await vi.waitFor(() => expect(seen).toEqual(['e1:2', 'e1:3', 'e1:4', 'e1:5']))
    expect(client.requests[0]).toMatchObject({ type: 'history', since: { epoch: 'e1', offset: 1 } })
    complete = false
    ch.message(msg(8)) // history now only has 7 and 8: 6 is gone
    await vi.waitFor(() => expect(seen.slice(4)).toEqual(['gap history_expired 5→e1:6', 'e1:7', 'e1:8']))
    // A fill that cannot reach a held message reports the gap instead of asking again (no loop).
    lost = true
    ch.message(msg(12))
    await vi.waitFor(() => expect(seen.slice(7)).toEqual(['gap history_expired 8→e1:11', 'e1:12']))
  })

  it('a fill whose history read keeps failing is retried with backoff, a bounded number of times, then reported', async () => {
    vi.useFakeTimers()
    try {
      const { ch, seen, client } = setup(
        () => Promise.reject(new Error('down')),
        () => 100,
      )
      ch.subscribed({ channel: 'c', epoch: 'e1', offset: 1, recovered: true, missed: [] })
      ch.message(msg(4))
      ch.message(msg(5)) // held while the fill retries
      await vi.advanceTimersByTimeAsync(99)
      expect(client.requests).toHaveLength(1) // no tight loop: the next read waits for the backoff
      expect(seen).toEqual([])
      await vi.advanceTimersByTimeAsync(1_000)
      expect(client.requests).toHaveLength(FILL_ATTEMPTS)
      expect(client.error).toHaveBeenCalledTimes(FILL_ATTEMPTS)
      expect(seen).toEqual(['gap history_unavailable 1→e1:3', 'e1:4', 'e1:5'])
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('a channel let go while its fill waits to retry: its timer is cleared, and what it held back is reported', async () => {
    vi.useFakeTimers()
    try {
      const { ch, seen, client, off } = setup(
        () => Promise.reject(new Error('down')),
        () => 100,
      )
      ch.subscribed({ channel: 'c', epoch: 'e1', offset: 1, recovered: true, missed: [] })
      ch.message(msg(4))
      ch.message(msg(5))
      await vi.advanceTimersByTimeAsync(0)
      expect(vi.getTimerCount()).toBe(1)
      off()
      expect(seen).toEqual(['gap history_unavailable 1→e1:5'])
      expect(vi.getTimerCount()).toBe(0)
      await vi.advanceTimersByTimeAsync(1_000)
      expect(client.requests).toHaveLength(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it('malformed results and missed messages are errors, never exceptions', () => {
    const { ch, client, seen } = setup()
    // A live frame is checked once, by parseFrame, before it reaches a channel (malformed.test.ts);
    // the messages of a resume answer are checked here, one by one.
    ch.subscribed({ channel: 'c', epoch: 'e1', offset: 0, recovered: true, missed: [{ offset: 'x' }] } as never) // malformed on purpose
    expect(client.error).toHaveBeenCalledTimes(1)
    expect(seen).toEqual([])
    const other = createChannel('d', client)
    other.subscribe(() => {})
    other.subscribed({ channel: 'd', error: { code: 'forbidden', message: 'no' } })
    expect(other.state).toBe('failed')
  })

  it('listeners that throw do not break delivery; the last one leaving detaches and forgets the position', () => {
    const { ch, seen, client } = setup()
    const report = vi.fn()
    vi.stubGlobal('reportError', report) // Node 20 has none
    const off = ch.subscribe(() => {
      throw new Error('app bug')
    })
    ch.subscribed({ channel: 'c', epoch: 'e1', offset: 0, recovered: true, missed: [] })
    ch.message(msg(1))
    expect(seen).toEqual(['e1:1'])
    expect(report).toHaveBeenCalledOnce()
    vi.unstubAllGlobals()
    off()
    expect(ch.state).toBe('subscribed') // the first listener still holds it
    expect(client.changed).toHaveBeenCalledTimes(1)
    const lone = createChannel('lone', client)
    const offLone = lone.subscribe(() => {})
    lone.subscribed({ channel: 'lone', epoch: 'e1', offset: 3, recovered: true, missed: [] })
    expect(lone.position).toEqual({ epoch: 'e1', offset: 3 })
    offLone()
    offLone() // idempotent
    expect(lone.state).toBe('unsubscribed')
    expect(lone.position).toBeUndefined()
    expect(client.changed).toHaveBeenCalledTimes(3) // ch once; lone on and off
  })
})
