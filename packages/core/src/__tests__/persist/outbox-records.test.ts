import { describe, expect, it } from 'vitest'
import { waitUntil } from '../../../../../test/utils/wait.js'
import {
  clearPersisted,
  durableOutbox,
  isOutboxFullError,
  memoryStorage,
  type DurableOutbox,
  type OutboxEntry,
  type PersistStorage,
} from '../../entries/persist.js'
import { isValidationError, type RequestOptions, type Thread } from '../../index.js'
import { createClientOfStyle } from '../client-style.js'
import { setup } from '../helpers.js'
import { heldKeys, journaled, record, reply } from './stored-outbox.js'

// Each held write is stored on its own (`<key>:outbox#<id>`, with its place in the order): a change
// writes one record, never the whole list (issue 49). Restored in their order, each record checked
// on its own; a list stored by the version before is moved to records once; logout deletes them all.

/** An outbox whose sends wait until `release()` (the first one stays on its way, the rest are held). */
function held(key: string, storage: PersistStorage, extra: { maxEntries?: number } = {}) {
  const outbox = durableOutbox({ key, storage, ...extra })
  const stored = { n: 0 }
  outbox.on('queued', () => void stored.n++)
  let release: () => void = () => undefined
  const gate = new Promise<void>((r) => (release = r))
  const send = outbox.rest(<T>() => gate.then(() => ({ id: 'thr_1' }) as T))
  const write = (text: string) => {
    const req: RequestOptions = { service: 'support', method: 'POST', path: '/v1/conversations/cnv_1/reply' }
    const done = send({ ...req, body: { text } })
    done.catch(() => undefined)
    return done
  }
  return { outbox, write, stored, release: () => release() }
}

/** Polls what storage holds (no event says it) until `check`, for at most 5 s. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

const texts = (entries: readonly OutboxEntry[]) =>
  entries.map((e) => (e.kind === 'rest' ? (e.request.body as { text: string }).text : ''))

const count = (outbox: DurableOutbox, n: number, what: string) =>
  waitUntil(() => outbox.getSnapshot().entries.length === n, { on: outbox.subscribe, what })

describe('the durable outbox stores each write on its own', () => {
  it('each change writes one record, never the list: 100 held writes, drained, and no write grows with them', async () => {
    const { emu } = await setup()
    const { storage, writes } = journaled(memoryStorage())
    let offline = false
    const fetch: typeof globalThis.fetch = (input, init) =>
      offline ? Promise.reject(new TypeError('fetch failed')) : globalThis.fetch(input, init)
    const outbox = durableOutbox({ key: 'rec', storage, random: () => 0, retry: { baseMs: 20, maxMs: 100 } })
    const { client } = createClientOfStyle({
      baseUrl: emu.url,
      auth: { url: `${emu.url}/dev/token` },
      fetch,
      outbox,
      retry: { limit: 0 },
    })
    await outbox.ready
    const [conversation] = (await client.support.conversations.list({ limit: 1 })).data
    offline = true
    const calls = Array.from({ length: 100 }, (_, i) =>
      client.support.conversations.reply(conversation!.id, { text: `w${i}` }),
    )
    await count(outbox, 100, '100 held')
    offline = false
    await Promise.all(calls)
    await count(outbox, 0, 'all applied')

    const outboxWrites = writes.filter((w) => w.key.startsWith('rec:outbox'))
    // Every one a single write's record: none is the list (`rec:outbox`), none grows with what is held.
    expect(outboxWrites.filter((w) => !w.key.startsWith('rec:outbox#'))).toEqual([])
    const stored = outboxWrites.filter((w) => w.bytes > 0)
    expect(Math.max(...stored.map((w) => w.bytes))).toBeLessThan(2 * Math.min(...stored.map((w) => w.bytes)))
    // 100 stored and 100 dropped, plus the first write's failures while offline (one record each).
    expect(outboxWrites.filter((w) => w.bytes === 0)).toHaveLength(100)
    expect(new Set(outboxWrites.map((w) => w.key)).size).toBe(100)
    expect(await heldKeys(storage, 'rec')).toEqual([])
    const threads: string[] = []
    for await (const t of client.support.conversations.threads(conversation!.id, { limit: 100 }))
      threads.push((t as Thread).text)
    expect(threads.slice(-100)).toEqual(Array.from({ length: 100 }, (_, i) => `w${i}`))
    outbox.stop()
  })

  it('restores the records in the order they were stored (their seq), whatever order storage lists them in', async () => {
    const storage = memoryStorage()
    for (const [id, seq] of [
      ['c', 30],
      ['a', 10.5],
      ['b', 20],
    ] as const)
      await storage.set(`ord:outbox#${id}`, record(seq, reply(id)))
    const outbox = durableOutbox({ key: 'ord', storage })
    const restored: string[][] = []
    outbox.on('restore', ({ entries }) => void restored.push(entries.map((e) => e.id)))
    await outbox.ready
    expect(restored).toEqual([['a', 'b', 'c']])
    // A write made now goes after them, also after a reload.
    const h = held('ord', storage)
    await h.outbox.ready
    void h.write('d')
    await waitUntil(() => h.stored.n === 1, { what: 'd stored' })
    outbox.stop()
    h.outbox.stop()
    const next = durableOutbox({ key: 'ord', storage })
    await next.ready
    expect(texts(next.getSnapshot().entries)).toEqual(['a', 'b', 'c', 'd'])
    next.stop()
  })

  it('a malformed or foreign record is dropped (refused with why when it is an entry), never thrown; the good one stays', async () => {
    const storage = memoryStorage()
    const good = reply('good')
    const badPath = { ...reply('bad'), request: { service: 'support', method: 'POST', path: '/v1/conversations/../x' } }
    await storage.set('mal:outbox#good', record(1, good))
    await storage.set('mal:outbox#bad', record(2, badPath))
    await storage.set('mal:outbox#null', null)
    await storage.set('mal:outbox#v2', { v: 2, seq: 3, entry: reply('v2') })
    await storage.set('mal:outbox#stranger', record(4, reply('someone-else'))) // under another entry's id
    await storage.set('mal:outbox#noseq', { v: 1, entry: reply('noseq') })
    await storage.set('mal:outbox#x:session', { v: 1, id: 'another key’s', since: 1 }) // key `mal:outbox#x`'s
    const outbox = durableOutbox({ key: 'mal', storage })
    const refused: [string, unknown][] = []
    outbox.on('refused', ({ entry, error }) => void refused.push([entry.id, isValidationError(error) && error.field]))
    await outbox.ready
    expect(outbox.getSnapshot().entries.map((e) => e.id)).toEqual(['good'])
    await eventually(async () => (await heldKeys(storage, 'mal')).length === 2, 'the bad records dropped')
    expect(await heldKeys(storage, 'mal')).toEqual(['mal:outbox#good', 'mal:outbox#x:session'])
    expect(refused).toEqual([['bad', 'request.path']])
    outbox.stop()
  })

  it('a list stored by the version before (`<key>:outbox`) is moved to one record per write, once, in its order', async () => {
    const storage = memoryStorage()
    const before = [reply('1'), reply('2'), { id: 'junk' }, reply('3')]
    await storage.set('mig:outbox', { v: 1, entries: before })
    const { storage: watched, writes } = journaled(storage)
    const h = held('mig', watched)
    await h.outbox.ready
    expect(h.outbox.getSnapshot().entries.map((e) => e.id)).toEqual(['1', '2', '3'])
    expect(await storage.get('mig:outbox')).toBeUndefined()
    await eventually(async () => (await heldKeys(storage, 'mig')).length === 3, 'the junk record dropped')
    expect(await heldKeys(storage, 'mig')).toEqual(['mig:outbox#1', 'mig:outbox#2', 'mig:outbox#3'])
    expect(writes.filter((w) => w.key === 'mig:outbox')).toEqual([{ key: 'mig:outbox', bytes: 0 }]) // deleted, once
    void h.write('4')
    await waitUntil(() => h.stored.n === 1, { what: 'a write after them, stored' })
    h.outbox.stop()
    const next = durableOutbox({ key: 'mig', storage })
    await next.ready
    expect(texts(next.getSnapshot().entries)).toEqual(['1', '2', '3', '4'])
    next.stop()
  })

  it('the cap holds across reloads: maxEntries records, and one more is refused', async () => {
    const storage = memoryStorage()
    const h = held('cap', storage, { maxEntries: 3 })
    await h.outbox.ready
    for (const t of ['1', '2', '3']) void h.write(t)
    await waitUntil(() => h.stored.n === 3, { what: '3 stored' })
    await expect(h.write('4')).rejects.toSatisfy(isOutboxFullError)
    expect(await heldKeys(storage, 'cap')).toHaveLength(3)
    h.outbox.stop()
    const next = held('cap', storage, { maxEntries: 3 })
    await next.outbox.ready
    expect(next.outbox.getSnapshot().entries).toHaveLength(3)
    await expect(next.write('5')).rejects.toSatisfy(isOutboxFullError)
    expect(await heldKeys(storage, 'cap')).toHaveLength(3)
    next.outbox.stop()
  })

  it('a logout deletes every record of the key (and no other key’s); a send that ends after it writes none back', async () => {
    const storage = memoryStorage()
    await storage.set('out:outbox#x:session', { v: 1, id: 'another key’s', since: 1 })
    const h = held('out', storage)
    await h.outbox.ready
    const first = h.write('on its way')
    for (const t of ['2', '3']) void h.write(t)
    await waitUntil(() => h.stored.n === 3, { what: '3 stored' })
    expect(await heldKeys(storage, 'out')).toHaveLength(4)
    await clearPersisted({ key: 'out', storage })
    await waitUntil(() => h.outbox.getSnapshot().loggedOut !== undefined, { what: 'the outbox told' })
    expect(await heldKeys(storage, 'out')).toEqual(['out:outbox#x:session'])
    h.release() // the send on its way at the logout ends now: its drop is not written
    await expect(first).rejects.toMatchObject({ code: 'outbox_cleared' })
    await new Promise((r) => setTimeout(r, 20))
    expect(await heldKeys(storage, 'out')).toEqual(['out:outbox#x:session'])
    expect(await storage.get('out:session')).toBeUndefined()
    h.outbox.stop()
  })

  it('a storage that cannot list its keys is refused at creation with a typed error (its writes could not be found again)', async () => {
    const { keys: _, ...unlisted } = memoryStorage()
    expect(() => durableOutbox({ key: 'list', storage: unlisted })).toThrow(
      expect.objectContaining({ name: 'ValidationError', code: 'validation_error', field: 'storage' }),
    )
    expect(await unlisted.get('list:session')).toBeUndefined() // refused before anything is stored
    // The saved cache needs no list: a logout on such a storage still deletes what it holds.
    await unlisted.set('list:cache', { v: 1 })
    await clearPersisted({ key: 'list', storage: unlisted })
    expect(await unlisted.get('list:cache')).toBeUndefined()
  })
})
