// createMessageLog at its bound (issue 44, row 1): a message appended at `max` costs what one
// appended below it costs. The snapshot holds its messages in chunks; one append copies at most the
// chunk it lands in and the chunk the oldest leaves, and every other chunk is the previous
// snapshot's own array, so neither the store nor a list memoised per chunk redoes 10,000 items.
import { until } from '../../../../../test/utils/wait.js'
import { describe, expect, it } from 'vitest'
import { createMessageLog, DEFAULTS, type MessageLog, type MessageLogSnapshot, type Schedule } from '../../index.js'
import { client, useEmulator } from '../helpers.js'

const emu = useEmulator({ realtime: { historySize: 5_000, historyTtlMs: 600_000 } })
const now: Schedule = (flush) => {
  queueMicrotask(flush)
  return () => {}
}
const seed = (channel: string, n: number) => {
  for (let i = 0; i < n; i++) emu().realtime.publish(channel, 'message', { i })
}
const CHUNK = DEFAULTS.messageLog.chunk

/** Items in `next`'s chunks that are not one of `prev`'s arrays: what building `next` copied. */
function copied<T>(prev: MessageLogSnapshot<T>, next: MessageLogSnapshot<T>): number {
  const kept = new Set(prev.chunks)
  return next.chunks.reduce((n, c) => n + (kept.has(c) ? 0 : c.length), 0)
}

function watch<T>(log: MessageLog<T>) {
  const off = log.subscribe(() => {})
  const wait = (check: () => boolean, what: string) => until((cb) => log.subscribe(cb), check, 10_000, what)
  return { off, wait, last: () => log.getSnapshot().chunks.at(-1)?.at(-1)?.offset }
}

describe('createMessageLog at its bound', () => {
  it('an append at the cap copies at most two chunks and shares every other chunk with the previous snapshot', async () => {
    const max = 2_000
    expect(CHUNK * 2).toBeLessThan(max / 10) // the bound below is the chunk's, far from max's
    const rt = client(emu())
    const log = createMessageLog(rt, 'cap:share', { initial: 0, max, schedule: now })
    const w = watch(log)
    await w.wait(() => rt.channel('cap:share').state === 'subscribed', 'the subscription')
    seed('cap:share', max + 37)
    await w.wait(() => w.last() === max + 37, 'the flood')
    expect(log.getSnapshot().count).toBe(max)

    const perAppend: number[] = []
    for (let i = 1; i <= 2 * CHUNK + 5; i++) {
      const prev = log.getSnapshot()
      seed('cap:share', 1)
      await w.wait(() => w.last() === max + 37 + i, `message ${max + 37 + i}`)
      const next = log.getSnapshot()
      // The same semantics as ever: the oldest went, the newest came, in order, each once.
      expect(next.count).toBe(max)
      expect(next.messages.length).toBe(max)
      expect(next.messages[0]!.offset).toBe(38 + i)
      expect(next.messages.at(-1)!.offset).toBe(max + 37 + i)
      // Every chunk but the first (the oldest left it) and the last (the newest joined it) is the previous one's.
      const kept = new Set(prev.chunks)
      expect(next.chunks.slice(1, -1).every((c) => kept.has(c))).toBe(true)
      expect(next.chunks.every((c) => c.length > 0 && c.length <= CHUNK)).toBe(true)
      perAppend.push(copied(prev, next))
    }
    // Items copied per append: bounded by the chunk (two at most), not by `max`.
    expect(Math.max(...perAppend)).toBeLessThanOrEqual(2 * CHUNK)
    const offsets = log.getSnapshot().messages.map((m) => m.offset)
    expect(offsets).toEqual(Array.from({ length: max }, (_, i) => offsets[0]! + i))
    w.off()
  })

  it('`messages` is the chunks end to end, built once per snapshot; pages read back fill chunks of at most CHUNK', async () => {
    seed('cap:pages', 700)
    const rt = client(emu())
    const log = createMessageLog(rt, 'cap:pages', { initial: 30, schedule: now })
    const w = watch(log)
    await w.wait(() => log.getSnapshot().loaded && !log.getSnapshot().loading, 'the first page')
    for (const count of [7, 100, 1, 250, 13]) await log.loadEarlier(count)
    seed('cap:pages', 2 * CHUNK + 3)
    await w.wait(() => w.last() === 700 + 2 * CHUNK + 3, 'the live messages')
    const s = log.getSnapshot()
    expect(s.messages).toBe(s.messages) // memoised: a second read builds nothing
    expect(s.messages).toEqual(s.chunks.flat())
    expect(s.count).toBe(30 + 7 + 100 + 1 + 250 + 13 + 2 * CHUNK + 3)
    expect(s.messages.map((m) => m.offset)).toEqual(Array.from({ length: s.count }, (_, i) => 700 - 401 + i + 1))
    expect(s.chunks.every((c) => c.length > 0 && c.length <= CHUNK)).toBe(true)
    // Pages read back merge into the oldest chunk rather than leave a chunk per page.
    expect(s.chunks.length).toBeLessThanOrEqual(Math.ceil(s.count / CHUNK) + 2)
    // A snapshot's chunks never change under the reader, whatever the log does next: an app may keep
    // and compare them.
    const kept = s.chunks.map((c) => [...c])
    seed('cap:pages', 3 * CHUNK)
    await w.wait(() => w.last() === 700 + 5 * CHUNK + 3, 'more live messages')
    await log.loadEarlier(50)
    expect(s.chunks.map((c) => [...c])).toEqual(kept)
    expect(log.getSnapshot().chunks.slice(0, -3)).toContain(s.chunks[5])
    w.off()
  })
})
