import { describe, expect, it } from 'vitest'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { listQuery } from '../../entries/cache.js'
import {
  clearPersisted,
  durableOutbox,
  memoryStorage,
  persistCache,
  type PersistStorage,
} from '../../entries/persist.js'
import type { TandemClient } from '../../index.js'
import { createClientOfStyle } from '../client-style.js'
import { setup } from '../helpers.js'

// A "reload" is a new client on the same storage. Requests are counted on the emulator.

const inbox = listQuery('support/conversations', { limit: 5 })

function newClient(url: string): TandemClient {
  return createClientOfStyle({ baseUrl: url, auth: { url: `${url}/dev/token` } }).client
}

describe('persistCache (Node, in-memory storage)', () => {
  it('a reload restores the saved list before anything watches it; it shows at once, stale, then revalidates', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const first = newClient(emu.url)
    const p1 = persistCache(first, { key: 'user:kim', storage, throttleMs: 10 })
    expect((await p1.restored).reason).toBe('empty')
    const fetched = await first.cache.fetch(inbox)
    const saved: number[] = []
    p1.on('save', ({ entries }) => saved.push(entries))
    await waitUntil(() => saved.length > 0, { what: 'a save' })
    p1.stop()

    const second = newClient(emu.url)
    const p2 = persistCache(second, { key: 'user:kim', storage })
    expect(p2.getSnapshot().status).toBe('restoring')
    expect(await p2.restored).toEqual({ entries: 1, reason: 'restored', dropped: 0, problems: [] })
    expect(p2.getSnapshot()).toMatchObject({ status: 'restored', restore: { entries: 1 } })
    const before = emu.stats.byService.support
    const entry = second.cache.get(inbox)
    const firstPaint = entry.getSnapshot()
    expect(firstPaint.status).toBe('success')
    expect(firstPaint.items.map((c) => c.id)).toEqual(fetched.items.map((c) => c.id))
    expect(firstPaint.isStale).toBe(true)
    const off = entry.subscribe(() => undefined)
    await waitUntil(() => !entry.getSnapshot().isFetching && emu.stats.byService.support > before, {
      what: 'revalidated',
    })
    expect(emu.stats.byService.support - before).toBe(1)
    off()
    p2.stop()
  })

  it('discards a cache saved under another buster, and data older than maxAgeMs', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const a = newClient(emu.url)
    const p = persistCache(a, { key: 'k', storage, buster: 'v1' })
    await a.cache.fetch(inbox)
    await p.flush()
    p.stop()
    const busted = persistCache(newClient(emu.url), { key: 'k', storage, buster: 'v2' })
    expect(await busted.restored).toEqual({ entries: 0, reason: 'busted', dropped: 0, problems: [] })
    busted.stop()
    expect(await storage.get('k:cache')).toBeUndefined() // dropped, not kept

    const b = newClient(emu.url)
    const p2 = persistCache(b, { key: 'k', storage })
    await b.cache.fetch(inbox)
    await p2.flush()
    p2.stop()
    const saved = (await storage.get('k:cache')) as { savedAt: number }
    await storage.set('k:cache', { ...saved, savedAt: saved.savedAt - 10_000 })
    const old = persistCache(newClient(emu.url), { key: 'k', storage, maxAgeMs: 5_000 })
    expect(await old.restored).toEqual({ entries: 0, reason: 'expired', dropped: 0, problems: [] })
    old.stop()
  })

  it('something unreadable in storage is discarded, never a crash', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    await storage.set('k:cache', { v: 99, garbage: true })
    const p = persistCache(newClient(emu.url), { key: 'k', storage })
    expect(await p.restored).toEqual({ entries: 0, reason: 'unreadable', dropped: 0, problems: [] })
    p.stop()
  })

  it('two tabs of one key: an update in one reaches the other without a request', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const a = newClient(emu.url)
    const b = newClient(emu.url)
    const pa = persistCache(a, { key: 'tabs', storage })
    const pb = persistCache(b, { key: 'tabs', storage })
    await Promise.all([pa.restored, pb.restored])
    const remote: number[] = []
    pb.on('remote', ({ entries }) => remote.push(entries))
    const fetched = await a.cache.fetch(inbox)
    await waitUntil(() => b.cache.get(inbox).getSnapshot().status === 'success', { what: 'tab b has the list' })
    const before = emu.stats.byService.support
    a.cache.setData(inbox, (d) => ({ pages: [{ ...d!.pages[0]!, data: d!.pages[0]!.data.slice(1) }] }))
    await waitUntil(() => b.cache.get(inbox).getSnapshot().items.length === fetched.items.length - 1, {
      what: 'tab b sees tab a’s update',
    })
    expect(emu.stats.byService.support).toBe(before)
    expect(remote.length).toBeGreaterThan(0)
    // No echo: b applying a's update does not send it back.
    const aChanges: unknown[] = []
    const offA = a.cache.onChange((c) => aChanges.push(c))
    await new Promise((r) => setTimeout(r, 50))
    expect(aChanges).toEqual([])
    offA()
    pa.stop()
    pb.stop()
  })

  it('clearPersisted removes the saved cache and outbox of the key, and empties the other tabs’ caches', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const a = newClient(emu.url)
    const b = newClient(emu.url)
    const pa = persistCache(a, { key: 'out', storage })
    const pb = persistCache(b, { key: 'out', storage })
    await a.cache.fetch(inbox)
    await pa.flush()
    await storage.set('out:outbox', { v: 1, entries: [] })
    await waitUntil(() => b.cache.get(inbox).getSnapshot().status === 'success')
    const cleared: string[] = []
    pb.on('cleared', () => cleared.push('b'))
    await pa.clearPersisted()
    expect(await storage.get('out:cache')).toBeUndefined()
    expect(await storage.get('out:outbox')).toBeUndefined()
    expect(a.cache.get(inbox).getSnapshot().status).toBe('pending')
    await waitUntil(() => cleared.length === 1, { what: 'tab b told' })
    expect(b.cache.get(inbox).getSnapshot().status).toBe('pending')
    pa.stop()
    pb.stop()
    const standalone = memoryStorage()
    await standalone.set('x:cache', 1)
    await clearPersisted({ key: 'x', storage: standalone })
    expect(await standalone.get('x:cache')).toBeUndefined()
  })

  it('storage that is full: it keeps working in memory and says so once', async () => {
    const { emu } = await setup()
    const deleted: string[] = []
    const full: PersistStorage = {
      get: () => Promise.resolve(undefined),
      set: () => Promise.reject(Object.assign(new Error('full'), { name: 'QuotaExceededError' })),
      del: (key) => Promise.resolve(void deleted.push(key)),
    }
    const a = newClient(emu.url)
    const p = persistCache(a, { key: 'q', storage: full, throttleMs: 1 })
    const fallbacks: unknown[] = []
    p.on('fallback', (e) => fallbacks.push(e))
    await a.cache.fetch(inbox)
    await p.flush()
    await a.cache.fetch(listQuery('support/conversations', { limit: 6 }))
    await p.flush()
    expect(fallbacks).toHaveLength(1)
    expect(fallbacks[0]).toMatchObject({ code: 'storage_unavailable' })
    expect(p.getSnapshot().mode).toBe('memory')
    // A logout in memory mode still deletes from the storage: what an earlier page saved must not come back.
    await p.clearPersisted()
    expect(deleted.sort()).toEqual(['q:cache', 'q:outbox', 'q:session'])
    p.stop()
  })

  it('with the outbox: a refused write’s optimistic change is rolled back once its collection has nothing held', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const outbox = durableOutbox({ key: 'rb', storage })
    const client = createClientOfStyle({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, outbox }).client
    const p = persistCache(client, { key: 'rb', storage, outbox })
    const entry = client.cache.get(inbox)
    const off = entry.subscribe(() => undefined)
    await waitUntil(() => entry.getSnapshot().status === 'success' && !entry.getSnapshot().isFetching)
    const truth = entry.getSnapshot().items.map((c) => c.id)
    // What an optimistic close would show (no caller left to roll it back: as after a reload).
    client.cache.setData(inbox, (d) => ({ pages: [{ ...d!.pages[0]!, data: d!.pages[0]!.data.slice(1) }] }))
    expect(entry.getSnapshot().items).toHaveLength(truth.length - 1)
    await client.support.conversations.update('cnv_missing', { status: 'closed' }).catch(() => undefined)
    await waitUntil(() => entry.getSnapshot().items.length === truth.length, { what: 'rolled back by a refetch' })
    expect(entry.getSnapshot().items.map((c) => c.id)).toEqual(truth)
    off()
    p.stop()
    outbox.stop()
  })

  it('restored data is stale whatever staleTime says, so it revalidates', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const a = newClient(emu.url)
    const p = persistCache(a, { key: 'st', storage })
    await a.cache.fetch(inbox)
    await p.flush()
    p.stop()
    const b = createClientOfStyle({
      baseUrl: emu.url,
      auth: { url: `${emu.url}/dev/token` },
      cache: { staleTime: 60_000 },
    }).client
    const saved = (await storage.get('st:cache')) as { state: { entries: { dataUpdatedAt: number }[] } }
    saved.state.entries[0]!.dataUpdatedAt -= 3_600_000 // an hour old
    await storage.set('st:cache', saved)
    const p2 = persistCache(b, { key: 'st', storage })
    await p2.restored
    expect(b.cache.get(inbox).getSnapshot().isStale).toBe(true)
    p2.stop()
  })

  it('a rollback in one tab reaches the other, which showed the optimistic data it was told', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const a = newClient(emu.url)
    const b = newClient(emu.url)
    const pa = persistCache(a, { key: 'rb2', storage })
    const pb = persistCache(b, { key: 'rb2', storage })
    await Promise.all([pa.restored, pb.restored])
    const fetched = await a.cache.fetch(inbox)
    const n = fetched.items.length
    await waitUntil(() => b.cache.get(inbox).getSnapshot().items.length === n)
    const rollback = a.cache.setData(inbox, (d) => ({ pages: [{ ...d!.pages[0]!, data: d!.pages[0]!.data.slice(1) }] }))
    await waitUntil(() => b.cache.get(inbox).getSnapshot().items.length === n - 1, {
      what: 'b sees the optimistic change',
    })
    rollback()
    await waitUntil(() => b.cache.get(inbox).getSnapshot().items.length === n, { what: 'b sees the rollback' })
    pa.stop()
    pb.stop()
  })
})
