// A saved cache is read back from storage, and storage is not trusted (another app version, an
// extension, a person with the browser profile). One entry of the wrong shape, `data: { pages: 5 }`
// for a list, used to break the whole restore: `restored` said `unreadable` with 0 entries, yet the
// bad entry was in the cache, `getSnapshot()` threw `pages?.at is not a function`, the good entries
// after it were never restored, and the blob stayed for the next load. Now each saved entry is
// checked on its own (what the cache reads for its query kind, and the contract's item fields of
// its collection): a bad one is left out alone and reported, the others restore, and the blob is
// written again without it. Entries another tab posts go through the same check.
import { createClient, listQuery, itemQuery, type TandemClient } from '@tandem/core'
import {
  persistCache,
  type BroadcastChannelConstructor,
  type PersistStorage,
  type RestoreResult,
} from '@tandem/core/persist'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { waitUntil } from '../utils/wait.js'

const FILE = 'restored-cache'
const SEED = seedFrom(0x9711)
const at = replay(SEED, FILE)

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ seed: SEED })
})
afterAll(() => emu.close())
beforeEach(() => printSeedOnFailure(SEED, FILE))

function client(): TandemClient {
  const auth = {
    fetchToken: async () => ({ token: await emu.mintToken({ subject: 'agent_r', scope: ['*'] }), expiresIn: 600 }),
  }
  return createClient({ baseUrl: emu.url, auth })
}

/** Storage that keeps what it is given as IndexedDB does: a structured clone, with an atomic update. */
function cloningStorage(): PersistStorage & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>()
  return {
    values,
    get: (key) => Promise.resolve(structuredClone(values.get(key))),
    set: (key, value) => Promise.resolve(void values.set(key, structuredClone(value))),
    del: (key) => Promise.resolve(void values.delete(key)),
    update: (key, updater) => Promise.resolve(void values.set(key, structuredClone(updater(values.get(key))))),
  }
}

/** A BroadcastChannel for tabs in one process: each message reaches the other instances of the name. */
function channels(): BroadcastChannelConstructor {
  const open = new Set<{ name: string; onmessage: ((e: { data: unknown }) => void) | null }>()
  return class {
    onmessage: ((e: { data: unknown }) => void) | null = null
    constructor(readonly name: string) {
      open.add(this)
    }
    postMessage(data: unknown) {
      for (const other of open)
        if (other !== this && other.name === this.name)
          queueMicrotask(() => other.onmessage?.({ data: structuredClone(data) }))
    }
    close() {
      open.delete(this)
    }
  }
}

const inbox = listQuery('support/conversations', { limit: 5 })
const closed = listQuery('support/conversations', { limit: 5, status: 'closed' })
const mailboxes = listQuery('support/mailboxes', { limit: 10 })
const broken = listQuery('support/conversations', { limit: 7 })

describe('a saved cache with entries of the wrong shape', () => {
  it('each bad entry is dropped alone and reported; the others restore; nothing throws; the blob is rewritten', async () => {
    const storage = cloningStorage()
    const first = client()
    const p1 = persistCache(first, { key: 'user:r', storage })
    await p1.restored
    const [conversation] = (await first.cache.fetch(inbox)).items
    const item = itemQuery('support/conversations', conversation!.id)
    await first.cache.fetch(item)
    await first.cache.fetch(closed)
    await first.cache.fetch(mailboxes)
    await p1.flush()
    p1.stop()

    // Tampered: bad entries first and in between, good ones after them.
    const saved = storage.values.get('user:r:cache') as { state: { entries: unknown[] } }
    const good = saved.state.entries
    expect(good, at).toHaveLength(4)
    const now = Date.now()
    const page = { data: [{ id: 'cnv_x', subject: 42 }], nextCursor: null }
    const bad = [
      { query: broken, data: { pages: 5 }, dataUpdatedAt: now - 1000 }, // the case
      { query: listQuery('support/conversations', { limit: 8 }), data: { pages: [page] }, dataUpdatedAt: now - 1000 },
      { query: listQuery('support/conversations', { limit: 9 }), data: { pages: [{ data: 'x' }] }, dataUpdatedAt: 1 },
      { query: listQuery('support/mailboxes', { limit: 11 }), data: { pages: [null] }, dataUpdatedAt: 1 },
      { query: itemQuery('support/conversations', 'cnv_y'), data: 'a string', dataUpdatedAt: 1 },
      { query: itemQuery('support/conversations', 'cnv_z'), data: { id: 'cnv_other' }, dataUpdatedAt: 1 },
      { query: itemQuery('support/conversations', 'cnv_w'), data: { id: 'cnv_w', tags: 'vip' }, dataUpdatedAt: 1 },
      { query: listQuery('support/mailboxes', { limit: 12 }), data: { pages: [] }, dataUpdatedAt: now + 3_600_000 },
      { query: { service: 'evil', collection: 'x' }, data: { pages: [] }, dataUpdatedAt: 1 },
      { query: { key: ['call'] }, data: 1, dataUpdatedAt: 1 },
      null,
    ]
    storage.values.set('user:r:cache', {
      ...saved,
      state: { entries: [bad[0], good[0], ...bad.slice(1, 5), good[1], good[2], ...bad.slice(5), good[3]] },
    })

    const second = client()
    const p2 = persistCache(second, { key: 'user:r', storage })
    const events: RestoreResult[] = []
    p2.on('restore', (r) => void events.push(r))
    const result = await p2.restored
    console.log(`[restored-cache] restored ${result.entries}, dropped ${result.dropped}: ${result.reason}`)
    expect(result, at).toMatchObject({ entries: 4, reason: 'restored', dropped: bad.length })
    expect(
      result.problems.map((x) => x.why),
      at,
    ).toEqual([
      '$.pages: not an array',
      '$.pages[0].data[0].number: not as the contract says',
      '$.pages[0].data: not as the contract says',
      '$.pages[0]: not as the contract says',
      '$: not an object',
      '$.id: another item’s',
      '$.number: not as the contract says',
      'dataUpdatedAt: not a time before now',
      'query.service: not a service',
      'query.key: a call is never saved',
      'not an entry',
    ])
    expect(result.problems[0]!.key, at).toBe(JSON.stringify(['support', 'conversations', null, [['limit', 7]]]))
    await waitUntil(() => events.length === 1, { what: `the restore event; ${at}` })
    expect(events[0], at).toEqual(result)
    expect(p2.getSnapshot().restore, at).toEqual(result)

    // The good ones are in the cache, stale; the bad list is not: it reads as pending, never throws.
    for (const q of [inbox, closed])
      expect(second.cache.get(q).getSnapshot(), at).toMatchObject({ status: 'success', isStale: true })
    expect(second.cache.get(mailboxes).getSnapshot(), at).toMatchObject({ status: 'success', isStale: true })
    expect(second.cache.get(item).getSnapshot().data, at).toMatchObject({ id: conversation!.id })
    const entry = second.cache.get(broken)
    expect(entry.getSnapshot(), at).toMatchObject({ status: 'pending', items: [], hasNextPage: false })
    const off = entry.subscribe(() => undefined)
    await waitUntil(() => entry.getSnapshot().status === 'success', { what: `the bad list fetched afresh; ${at}` })
    off()

    // The blob holds no bad entry any more: the next load meets none.
    const again = (storage.values.get('user:r:cache') as { state: { entries: unknown[] } }).state.entries
    expect(again, at).toEqual(good)
    p2.stop()
    const third = persistCache(client(), { key: 'user:r', storage })
    expect(await third.restored, at).toEqual({ entries: 4, reason: 'restored', dropped: 0, problems: [] })
    third.stop()
  })

  it('only bad entries: unreadable, 0 entries, none in the cache', async () => {
    const storage = cloningStorage()
    storage.values.set('user:s:cache', {
      v: 1,
      buster: '',
      savedAt: Date.now(),
      state: { entries: [{ query: broken, data: { pages: 5 }, dataUpdatedAt: Date.now() - 1 }] },
    })
    const c = client()
    const p = persistCache(c, { key: 'user:s', storage })
    expect(await p.restored, at).toMatchObject({ entries: 0, reason: 'unreadable', dropped: 1 })
    expect(c.cache.get(broken).getSnapshot().status, at).toBe('pending')
    expect((storage.values.get('user:s:cache') as { state: { entries: unknown[] } }).state.entries, at).toEqual([])
    p.stop()
  })

  it('another tab’s post: its bad entries are left out, its good ones land', async () => {
    const BroadcastChannel = channels()
    const storage = cloningStorage()
    const a = client()
    const b = client()
    const pa = persistCache(a, { key: 'user:t', storage, BroadcastChannel })
    const pb = persistCache(b, { key: 'user:t', storage, BroadcastChannel })
    await Promise.all([pa.restored, pb.restored])
    const remote: { entries: number; dropped: number }[] = []
    pb.on('remote', (r) => void remote.push(r))
    // What a tab (a stranger on the channel, another version) posts: one bad entry beside a good one.
    const fetched = await client().cache.fetch(inbox)
    const post = new BroadcastChannel('tandem:persist:user:t')
    post.postMessage({
      t: 'entries',
      entries: [
        { query: broken, data: { pages: 5 }, dataUpdatedAt: Date.now() - 1 },
        { query: inbox, data: fetched.data, dataUpdatedAt: fetched.dataUpdatedAt },
      ],
    })
    await waitUntil(() => remote.length === 1, { what: `b heard the post; ${at}` })
    expect(remote[0], at).toEqual({ entries: 1, dropped: 1 })
    expect(b.cache.get(inbox).getSnapshot().status, at).toBe('success')
    expect(b.cache.get(broken).getSnapshot().status, at).toBe('pending')
    post.close()
    pa.stop()
    pb.stop()
  })
})
