import { poll, until } from '../../../../../test/utils/wait.js'
import { bindLiveResources, createResourceCache, type Collection, type ListQuery } from '@tandem/core'
import { createPool } from '@tandem/core/internal'
import { describe, expect, it } from 'vitest'
import { createFeed, leaseChannel, leasedChannels } from '../../index.js'
import { client, untilSubscribed, useEmulator } from '../helpers.js'

const emu = useEmulator()

describe('leases', () => {
  it('a pool closes a key a delay after its last holder, and a new hold meanwhile keeps it open', async () => {
    const log: string[] = []
    const pool = createPool(20)
    const open = (k: string) => () => {
      log.push(`open ${k}`)
      return () => void log.push(`close ${k}`)
    }
    const a = pool.acquire('x', open('x'))
    const b = pool.acquire('x', open('x'))
    a()
    a() // twice: counted once
    b()
    const c = pool.acquire('x', open('x')) // within the delay
    expect(log).toEqual(['open x'])
    c()
    expect(pool.size).toBe(1)
    await poll(() => pool.size === 0, 'the release')
    expect(log).toEqual(['open x', 'close x'])
  })

  it('leaseChannel: release and re-lease within the delay keeps the subscription (one subscribe frame, position kept)', async () => {
    const rt = client(emu())
    const ch = rt.channel('lease:a')
    const release = leaseChannel(rt, 'lease:a')
    await untilSubscribed(ch)
    const before = emu().realtime.stats.framesIn.subscribe ?? 0
    release()
    const again = leaseChannel(rt, 'lease:a')
    expect(ch.state).toBe('subscribed')
    again()
    await until(
      (cb) => ch.on('state', cb),
      () => ch.state === 'unsubscribed',
      1_000,
      'unsubscribed after the delay',
    )
    expect(leasedChannels(rt)).toBe(0)
    expect((emu().realtime.stats.framesIn.subscribe ?? 0) - before).toBe(0)
  })
})

describe('createFeed', () => {
  it('keeps the last `keep` items and tells listeners once per scheduled flush', () => {
    const flushes: (() => void)[] = []
    const feed = createFeed<number>(3, (f) => {
      flushes.push(f)
      return () => void flushes.splice(flushes.indexOf(f), 1)
    })
    let told = 0
    const off = feed.subscribe(() => told++)
    for (let i = 0; i < 1_000; i++) feed.push(i)
    expect(flushes).toHaveLength(1)
    flushes.shift()!()
    expect(told).toBe(1)
    expect(feed.getSnapshot()).toEqual([997, 998, 999])
    feed.push(1_000)
    off() // the last listener leaves: its pending flush is cancelled (no timer outlives it)
    expect(flushes).toHaveLength(0)
  })
})

// The binding lives in core (it needs a realtime connection only by shape): here with a real one.
describe('bindLiveResources', () => {
  it('patches the cached list from the collection channel and refetches once on a discontinuity', async () => {
    const rt = client(emu())
    let lists = 0
    const items = [{ id: 'a', name: 'A' }]
    const collection = {
      list: async () => (lists++, { data: [...items], nextCursor: null }),
    } as unknown as Collection<unknown>
    const cache = createResourceCache({ collection: () => collection, focusManager: { subscribe: () => () => {} } })
    const q: ListQuery = { service: 'support', collection: 'things' }
    const watched = cache.watch(q, () => {})
    const off = bindLiveResources(rt, cache, q)
    const ch = rt.channel('support:things')
    await untilSubscribed(ch)
    await poll(() => !cache.get(q).getSnapshot().isFetching, 'settled')
    const after = lists
    const pub = client(emu(), { subject: 'pub' })
    await pub.channel('support:things').publish('created', { item: { id: 'b', name: 'B' } })
    await pub.channel('support:things').publish('updated', { item: { id: 'a', name: 'A2' } })
    await pub.channel('support:things').publish('deleted', { id: 'b' })
    await poll(
      () =>
        cache
          .get(q)
          .getSnapshot()
          .items.map((x) => (x as { name: string }).name)
          .join() === 'A2',
      'patched',
    )
    expect(lists).toBe(after)

    emu().realtime.restart({ channel: 'support:things' })
    // The service's list changes with its events (the refetch may come before or after the event
    // is applied: either way the list ends as the service has it).
    items[0] = { id: 'a', name: 'A3' }
    await pub.channel('support:things').publish('updated', { item: { id: 'a', name: 'A3' } })
    await poll(() => lists === after + 1 && !cache.get(q).getSnapshot().isFetching, 'one refetch')
    expect(cache.get(q).getSnapshot().items).toEqual([{ id: 'a', name: 'A3' }])
    off()
    watched()
    cache.clear()
  })
})
