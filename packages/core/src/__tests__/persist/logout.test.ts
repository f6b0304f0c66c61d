import { describe, expect, it } from 'vitest'
import { until, waitUntil } from '../../../../../test/utils/wait.js'
import { listQuery } from '../../entries/cache.js'
import {
  clearPersisted,
  durableOutbox,
  memoryStorage,
  persistCache,
  type BroadcastChannelConstructor,
  type CachePersister,
  type DurableOutbox,
  type LogoutEvent,
  type PersistStorage,
} from '../../entries/persist.js'
import type { TandemClient } from '../../index.js'
import { createClientOfStyle } from '../client-style.js'
import { setup } from '../helpers.js'

// A logout in one tab ends the key's session in every tab (issue 44, row 3). A "tab" is a client, an
// outbox and a saved cache on one shared storage; they hear each other on Node's BroadcastChannel,
// or, asleep, not at all. Requests go to the emulator.

const inbox = listQuery('support/conversations', { limit: 5 })

interface Tab {
  client: TandemClient
  outbox: DurableOutbox
  persister: CachePersister
  /** The `cleared` events each of the two said, in order. */
  cleared: { persister: LogoutEvent[]; outbox: LogoutEvent[] }
}

function tab(url: string, key: string, storage: PersistStorage, BroadcastChannel?: BroadcastChannelConstructor): Tab {
  const outbox = durableOutbox({ key, storage, BroadcastChannel, retry: { baseMs: 20, maxMs: 100 } })
  const { client } = createClientOfStyle({ baseUrl: url, auth: { url: `${url}/dev/token` }, outbox })
  const persister = persistCache(client, { key, storage, outbox, BroadcastChannel, throttleMs: 10 })
  const cleared = { persister: [] as LogoutEvent[], outbox: [] as LogoutEvent[] }
  persister.on('cleared', (e) => void cleared.persister.push(e))
  outbox.on('cleared', (e) => void cleared.outbox.push(e))
  return { client, outbox, persister, cleared }
}

const stop = (...tabs: Tab[]) => tabs.forEach((t) => (t.persister.stop(), t.outbox.stop()))

/** A tab asleep (frozen, its page in the back/forward cache): it hears nothing of the others. */
class Deaf {
  onmessage: ((event: { data: unknown }) => void) | null = null
  postMessage() {}
  close() {}
}

/** What is stored for `key`: its session record, saved cache and outbox (absent ones left out). */
async function storedFor(storage: PersistStorage, key: string): Promise<string[]> {
  const out: string[] = []
  for (const k of [`${key}:session`, `${key}:cache`, `${key}:outbox`])
    if ((await storage.get(k)) !== undefined) out.push(k)
  return out
}

/**
 * The storage, with a journal: after each write, the key it wrote and whether the key is held. A
 * write that is held back (the first of `gateKey`) waits for `release()`: a save on its way.
 */
function journaled(raw: PersistStorage, gateKey?: string) {
  const journal: { op: string; key: string; held: boolean }[] = []
  let release: () => void = () => undefined
  const gate = new Promise<void>((r) => (release = r))
  let gated: Promise<void> | undefined
  const note = (op: string, key: string) => async () =>
    void journal.push({ op, key, held: (await raw.get(key)) !== undefined })
  const hold = <T>(key: string, run: () => Promise<T>): Promise<T> => {
    if (key !== gateKey || gated) return run()
    const held = gate.then(run)
    gated = held.then(() => undefined)
    return held
  }
  const storage: PersistStorage = {
    get: (key) => raw.get(key),
    keys: () => raw.keys!(),
    set: (key, value) => hold(key, () => raw.set(key, value).then(note('set', key))),
    del: (key) => raw.del(key).then(note('del', key)),
    update: (key, updater) => hold(key, () => raw.update!(key, updater).then(note('update', key))),
    updateWith: (key, guard, updater) =>
      hold(key, () => raw.updateWith!(key, guard, updater).then(note('updateWith', key))),
  }
  return { storage, journal, release, gated: () => gated }
}

describe('a logout holds in every tab of the key (Node)', () => {
  it('logged out in tab A: tab B empties its cache and outbox, ends, and writes nothing when its lists refetch', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const a = tab(emu.url, 'user:lo', storage)
    const b = tab(emu.url, 'user:lo', storage)
    await Promise.all([a.client.cache.fetch(inbox), b.client.cache.fetch(inbox)])
    await Promise.all([a.persister.flush(), b.persister.flush(), b.outbox.ready])
    expect(await storedFor(storage, 'user:lo')).toContain('user:lo:cache')

    await a.persister.clearPersisted()
    await until(b.persister.subscribe, () => b.persister.getSnapshot().loggedOut !== undefined, 5_000, 'B told')
    expect(a.cleared).toEqual({ persister: [{ by: 'this-tab' }], outbox: [{ by: 'this-tab' }] })
    await waitUntil(() => b.cleared.outbox.length === 1, { what: "B's outbox told" })
    expect(b.cleared).toEqual({ persister: [{ by: 'another-tab' }], outbox: [{ by: 'another-tab' }] })
    expect(b.persister.getSnapshot().loggedOut).toBe('another-tab')
    expect(b.outbox.getSnapshot().loggedOut).toBe('another-tab')
    expect(a.persister.getSnapshot().loggedOut).toBe('this-tab')
    expect(b.client.cache.get(inbox).getSnapshot().status).toBe('pending')

    // B's lists refetch (a focus, a live event): the data lands in its cache, and is never saved.
    await b.client.cache.fetch(inbox)
    await b.persister.flush()
    // A write in B after the logout is not taken.
    await expect(b.client.support.conversations.reply('cnv_1', { text: 'after the logout' })).rejects.toMatchObject({
      code: 'outbox_cleared',
    })
    expect(await storedFor(storage, 'user:lo')).toEqual([])
    stop(a, b)
  })

  it('a save on its way when another tab logs out writes nothing back, whether the tab heard or slept', async () => {
    const { emu } = await setup()
    for (const how of ['heard', 'asleep'] as const) {
      const key = `user:race-${how}`
      const raw = memoryStorage()
      const j = journaled(raw, `${key}:cache`)
      const a = tab(emu.url, key, raw)
      const b = tab(emu.url, key, j.storage, how === 'asleep' ? Deaf : undefined)
      await b.outbox.ready
      await b.client.cache.fetch(inbox)
      const saving = b.persister.flush()
      await waitUntil(() => j.gated() !== undefined, { what: `${how}: B's save on its way to storage` })

      await a.persister.clearPersisted()
      if (how === 'heard') await waitUntil(() => b.cleared.persister.length === 1, { what: 'B told' })
      const logout = j.journal.length
      j.release()
      await saving
      // Nothing stored after the logout, not even for a moment.
      expect(
        j.journal.slice(logout).filter((w) => w.held),
        how,
      ).toEqual([])
      expect(await storedFor(raw, key), how).toEqual([])
      // The tab that slept found out at its save.
      expect(b.persister.getSnapshot().loggedOut, how).toBe('another-tab')
      stop(a, b)
    }
  })

  it('a tab that slept through the logout wakes: it writes nothing, knows it is logged out, and leaves a new sign-in alone', async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const a = tab(emu.url, 'user:sleep', storage)
    const b = tab(emu.url, 'user:sleep', storage, Deaf)
    await b.client.cache.fetch(inbox)
    await Promise.all([b.persister.flush(), b.outbox.ready])
    await clearPersisted({ key: 'user:sleep', storage }) // a logout page: no persister at hand
    await waitUntil(() => a.persister.getSnapshot().loggedOut !== undefined, { what: 'A told' })
    expect(b.persister.getSnapshot().loggedOut).toBeUndefined() // asleep: it heard nothing

    // The user signs in again, in a new tab.
    const c = tab(emu.url, 'user:sleep', storage)
    await c.client.cache.fetch(inbox)
    await c.persister.flush()
    const signedIn = await storedFor(storage, 'user:sleep')
    expect(signedIn).toEqual(['user:sleep:session', 'user:sleep:cache'])
    const saved = await storage.get('user:sleep:cache')

    // B wakes with the old session in memory: its save and its held write keep nothing.
    await b.client.cache.fetch(inbox)
    await b.persister.flush()
    expect(b.cleared.persister).toEqual([{ by: 'another-tab' }])
    await expect(b.client.support.conversations.reply('cnv_1', { text: 'from the old session' })).rejects.toMatchObject(
      { code: 'outbox_cleared' },
    )
    expect(b.cleared.outbox).toEqual([{ by: 'another-tab' }])
    expect(await storedFor(storage, 'user:sleep')).toEqual(signedIn)
    expect(await storage.get('user:sleep:cache')).toBe(saved)
    expect(c.persister.getSnapshot().loggedOut).toBeUndefined()
    stop(a, b, c)
  })

  it("a logout by the outbox ends the saved cache it was given as this tab's too", async () => {
    const { emu } = await setup()
    const storage = memoryStorage()
    const a = tab(emu.url, 'user:one', storage)
    await a.client.cache.fetch(inbox)
    await a.persister.flush()
    await a.outbox.clearPersisted()
    expect(a.persister.getSnapshot().loggedOut).toBe('this-tab')
    expect(a.cleared).toEqual({ persister: [{ by: 'this-tab' }], outbox: [{ by: 'this-tab' }] })
    expect(a.client.cache.get(inbox).getSnapshot().status).toBe('pending')
    expect(await storedFor(storage, 'user:one')).toEqual([])
    stop(a)
  })

  it('a page shown again asks the stored session, and finds the logout it slept through', async () => {
    const { emu } = await setup()
    const g = globalThis as { addEventListener?: unknown; removeEventListener?: unknown; document?: unknown }
    const saved = {
      addEventListener: g.addEventListener,
      removeEventListener: g.removeEventListener,
      document: g.document,
    }
    const win = new EventTarget()
    const doc = Object.assign(new EventTarget(), { visibilityState: 'hidden' })
    Object.assign(g, {
      addEventListener: win.addEventListener.bind(win),
      removeEventListener: win.removeEventListener.bind(win),
      document: doc,
    })
    try {
      const storage = memoryStorage()
      const b = tab(emu.url, 'user:show', storage, Deaf)
      await Promise.all([b.persister.restored, b.outbox.ready])
      await clearPersisted({ key: 'user:show', storage })
      doc.visibilityState = 'visible'
      doc.dispatchEvent(new Event('visibilitychange'))
      await until(b.persister.subscribe, () => b.persister.getSnapshot().loggedOut === 'another-tab', 5_000, 'B woke')
      await until(b.outbox.subscribe, () => b.outbox.getSnapshot().loggedOut === 'another-tab', 5_000, "B's outbox")
      stop(b)
    } finally {
      Object.assign(g, saved)
    }
  })
})
