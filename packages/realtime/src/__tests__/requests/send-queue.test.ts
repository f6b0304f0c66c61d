import { RealtimeError } from '@tandem/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSendQueue, type Op, type Timing } from '../../requests/send-queue.js'

afterEach(() => {
  vi.useRealTimers()
})

const op = (log: string[], name: string): Op => ({
  frame: { type: 'publish', name },
  resolve: () => log.push(`ok ${name}`),
  reject: (e) => log.push(`${e.code} ${name}`),
})
const T: Timing = { timeoutMs: 1_000, queueTimeoutMs: 1_000 }
const LONG: Timing = { timeoutMs: 60_000, queueTimeoutMs: 60_000 }

describe('send queue', () => {
  it('bounds waiting requests (oldest dropped), times out, and resends what an older connection lost, in order', () => {
    vi.useFakeTimers()
    let seq = 0
    const log: string[] = []
    const dropped: RealtimeError[] = []
    const box = createSendQueue(
      2,
      () => seq,
      (e) => dropped.push(e),
    )
    const [a, b, c] = ['a', 'b', 'c'].map((n) => op(log, n)) as [Op, Op, Op]
    box.add(a, T)
    box.add(b, T)
    box.add(c, T)
    expect(log).toEqual(['queue_overflow a'])
    expect(dropped).toHaveLength(1)
    seq = 1
    const sent: string[] = []
    box.flush((o) => (sent.push(o.frame.name as string), true))
    box.flush((o) => (sent.push(o.frame.name as string), true)) // nothing twice on one connection
    expect(sent).toEqual(['b', 'c'])
    seq = 2 // the connection dropped before the replies: both go again, same frames
    box.flush((o) => (sent.push(o.frame.name as string), true))
    expect(sent).toEqual(['b', 'c', 'b', 'c'])
    box.remove(b)
    vi.advanceTimersByTime(1_000)
    expect(log).toEqual(['queue_overflow a', 'timeout c'])
  })

  it('waits for ready() and stops at a refusing socket', () => {
    const log: string[] = []
    const box = createSendQueue(
      10,
      () => 1,
      () => {},
    )
    let ready = false
    const gated = { ...op(log, 'p'), ready: () => ready }
    box.add(gated, LONG)
    box.add(op(log, 'q'), LONG)
    const sent: string[] = []
    box.flush((o) => (sent.push(o.frame.name as string), false))
    expect(sent).toEqual(['q'])
    ready = true
    box.flush((o) => (sent.push(o.frame.name as string), true))
    expect(sent).toEqual(['q', 'p', 'q'])
    box.clear(new RealtimeError('closed', { code: 'closed' }))
    expect(log).toEqual(['closed p', 'closed q'])
  })
})

/**
 * The two deadlines, one row per story: `steps` run in order on fake time (a number advances the
 * clock; `send` flushes on a new connection; `lost` drops it), then `outcome` is what the op got.
 */
describe('send queue deadlines: the reply deadline starts at the send, the queue deadline at the call', () => {
  type Step = number | 'send' | 'lost' | 'refused'
  const rows: { story: string; timing: Timing; steps: Step[]; outcome: string | undefined }[] = [
    {
      story: 'offline past the ack timeout, then sent: still waiting',
      timing: { timeoutMs: 1_000, queueTimeoutMs: 300_000 },
      steps: [25_000, 'send', 999],
      outcome: undefined,
    },
    {
      story: 'sent, no reply within timeoutMs of the send',
      timing: { timeoutMs: 1_000, queueTimeoutMs: 300_000 },
      steps: [25_000, 'send', 1_000],
      outcome: 'timeout',
    },
    {
      story: 'never sent within queueTimeoutMs of the call',
      timing: { timeoutMs: 1_000, queueTimeoutMs: 30_000 },
      steps: [29_999],
      outcome: undefined,
    },
    {
      story: 'never sent: queue_timeout, not timeout',
      timing: { timeoutMs: 1_000, queueTimeoutMs: 30_000 },
      steps: [30_000],
      outcome: 'queue_timeout',
    },
    {
      story: 'sent, socket lost: the reply deadline stops, the queue deadline resumes from the call',
      timing: { timeoutMs: 1_000, queueTimeoutMs: 30_000 },
      steps: [10_000, 'send', 500, 'lost', 5_000],
      outcome: undefined,
    },
    {
      story:
        'sent, socket lost, never back: at the call + queueTimeoutMs, timeout (it may have been stored), never queue_timeout',
      timing: { timeoutMs: 1_000, queueTimeoutMs: 30_000 },
      steps: [10_000, 'send', 500, 'lost', 19_499],
      outcome: undefined,
    },
    {
      story: 'sent, socket lost, never back: timeout at the call + queueTimeoutMs',
      timing: { timeoutMs: 1_000, queueTimeoutMs: 30_000 },
      steps: [10_000, 'send', 500, 'lost', 19_500],
      outcome: 'timeout',
    },
    {
      story: 'sent late in its window, socket lost: timeout at once, never queue_timeout',
      timing: { timeoutMs: 1_000, queueTimeoutMs: 30_000 },
      steps: [29_900, 'send', 200, 'lost', 0],
      outcome: 'timeout',
    },
    {
      story: 'refused for now (rate_limited) and its window ends: the refusal',
      timing: { timeoutMs: 1_000, queueTimeoutMs: 30_000 },
      steps: [29_000, 'send', 'refused', 1_000],
      outcome: 'rate_limited',
    },
    {
      story: 'resent after a loss: the reply deadline starts again',
      timing: { timeoutMs: 1_000, queueTimeoutMs: 30_000 },
      steps: ['send', 900, 'lost', 'send', 900],
      outcome: undefined,
    },
    {
      story: 'Infinity waits as long as a timer can',
      timing: { timeoutMs: 1_000, queueTimeoutMs: Infinity },
      steps: [24 * 86_400_000],
      outcome: undefined,
    },
  ]
  it.each(rows)('$story', ({ timing, steps, outcome }) => {
    vi.useFakeTimers()
    let seq = 0
    const log: string[] = []
    const box = createSendQueue(
      10,
      () => seq,
      () => {},
    )
    const x = op(log, 'x')
    box.add(x, timing)
    for (const step of steps) {
      if (step === 'send') {
        seq++
        box.flush(() => true)
      } else if (step === 'lost') box.lost()
      else if (step === 'refused')
        box.requeue(x, new RealtimeError('Rate limited', { code: 'rate_limited', temporary: true }))
      else vi.advanceTimersByTime(step)
    }
    expect(log[0]?.split(' ')[0]).toBe(outcome)
  })
})
