import type { AccessLogLine } from '@tandem/emulator'
import { describe, expect, it, vi } from 'vitest'
import { setup } from '../helpers.js'
import { list, settled, track } from './helpers.js'

describe('cache entry', () => {
  it('staleTime: no refetch on mount while fresh, one once stale', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { emu, client } = await setup()
    const count = () => emu.stats.byService.maps
    const start = count()
    const first = track(client.cache, list('maps'), { staleTime: 60_000 })
    await first.until(settled)
    first.off()
    expect(count() - start).toBe(1)

    const second = track(client.cache, list('maps'), { staleTime: 60_000 })
    expect(second.last()).toMatchObject({ status: 'success', isFetching: false, isStale: false })
    second.off()
    expect(count() - start).toBe(1)

    vi.advanceTimersByTime(60_001)
    expect(client.cache.get(list('maps')).getSnapshot().isStale).toBe(true)
    const third = track(client.cache, list('maps'), { staleTime: 60_000 })
    await third.until((s) => settled(s) && !s.isStale)
    expect(count() - start).toBe(2)
    third.off()
  })

  it('the last subscriber leaving mid-request aborts it; data, status and error stay as they were', async () => {
    const logged: AccessLogLine[] = []
    const onLine = new Set<() => void>()
    const { emu, client } = await setup({
      emulator: {
        onLog: (line) => {
          logged.push(line)
          onLine.forEach((f) => f())
        },
      },
    })
    const q = list('maps', { limit: 5 })
    const first = track(client.cache, q)
    const before = await first.until(settled)
    first.off()

    emu.faults.latency(10_000, { service: 'maps', count: 1 })
    const arrived = new Promise<void>((resolve) => {
      emu.server.on('request', (req) => req.url?.startsWith('/maps/v1/resources') && resolve())
    })
    const second = track(client.cache, q) // stale: refetches, held by the latency
    expect(second.last().isFetching).toBe(true)
    const joined = client.cache.fetch(q) // joins the request in flight
    await arrived
    const aborted = new Promise<AccessLogLine>((resolve) => {
      const check = () => {
        const line = logged.find((l) => l.path === '/maps/v1/resources' && l.status === 0)
        if (line) resolve(line)
      }
      onLine.add(check)
      check()
    })
    const requests = emu.stats.byService.maps
    second.off()
    await Promise.resolve() // the abort runs a microtask later (see the StrictMode test)

    const after = client.cache.get(q).getSnapshot()
    expect(after).toMatchObject({ status: 'success', error: null, isFetching: false })
    expect(after.data).toBe(before.data)
    expect(after.dataUpdatedAt).toBe(before.dataUpdatedAt)
    const result = await joined // resolves: no AbortError reaches the caller
    expect(result.data).toBe(before.data)
    expect(await aborted).toMatchObject({ status: 0, method: 'GET' })
    expect(second.seen.every((s) => s.error === null && s.data === before.data)).toBe(true)
    expect(emu.stats.byService.maps).toBe(requests) // no retry of a cancelled request
  })

  it('unsubscribe + immediate resubscribe (React StrictMode) keeps the request in flight', async () => {
    const { emu, client } = await setup()
    const before = emu.stats.byService.support
    const entry = client.cache.get(list('support'))
    entry.subscribe(() => {})()
    const off = entry.subscribe(() => {})
    await Promise.resolve()
    expect(entry.getSnapshot().isFetching).toBe(true)
    await entry.fetchNextPage() // waits for the first page, then loads the second
    expect(entry.getSnapshot().data?.pages).toHaveLength(2)
    expect(emu.stats.byService.support - before).toBe(2)
    off()
  })

  it('gc removes an entry gcTime after its last subscriber left, never while subscribed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const { client } = await setup({ client: { cache: { gcTime: 60_000 } } })
    const q = list('support')
    await client.cache.fetch(q)
    const entry = client.cache.get(q)
    // dehydrate() lists the cached entries without creating one (get() would).
    const cached = () => client.cache.dehydrate().entries.length
    const off = client.cache.watch(q, () => {}, { staleTime: Infinity })
    vi.advanceTimersByTime(10 * 60_000)
    expect(client.cache.get(q)).toBe(entry)
    off()
    vi.advanceTimersByTime(59_999)
    expect(cached()).toBe(1)
    vi.advanceTimersByTime(1)
    expect(cached()).toBe(0)
    // A holder of the collected entry that subscribes again puts it back (a mounted component).
    const again = entry.subscribe(() => {}, { staleTime: Infinity })
    expect(client.cache.get(q)).toBe(entry)
    again()
    client.cache.clear()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('fetchNextPage walks every page; refetch reloads all loaded pages', async () => {
    const { emu, client } = await setup()
    const ids: string[] = []
    for await (const r of client.support.resources.list({ limit: 100 })) ids.push(r.id)
    const pageCount = Math.ceil(ids.length / 100)
    expect(pageCount).toBeGreaterThan(1)

    const q = list('support', { limit: 100 })
    const w = track(client.cache, q)
    let s = await w.until(settled)
    const entry = client.cache.get(q)
    while (s.hasNextPage) {
      const next = entry.fetchNextPage()
      expect(entry.getSnapshot()).toMatchObject({ isFetchingNextPage: true, isFetching: true })
      await next
      s = entry.getSnapshot()
    }
    expect(s.data?.pages).toHaveLength(pageCount)
    expect(s.items.map((r) => r.id)).toEqual(ids)
    await entry.fetchNextPage() // no next page: nothing to do

    const before = emu.stats.byService.support
    await entry.refetch()
    expect(emu.stats.byService.support - before).toBe(pageCount)
    expect(entry.getSnapshot().items).toBe(s.items)
    w.off()
  })

  it('refetchInterval refetches while watched and stops when unwatched', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const { emu, client } = await setup()
    const others = vi.getTimerCount() // the emulator's own (its channel sweep)
    const w = track(client.cache, list('realtime'), { refetchInterval: 1_000 })
    await w.until(settled)
    const start = emu.stats.byService.realtime
    vi.advanceTimersByTime(1_000)
    expect(w.last().isFetching).toBe(true)
    await w.until(settled)
    expect(emu.stats.byService.realtime - start).toBe(1)
    w.off()
    expect(vi.getTimerCount()).toBe(others)
  })
})
