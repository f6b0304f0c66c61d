import { describe, expect, it } from 'vitest'
import { during, waitUntil } from '../../../../../test/utils/wait.js'
import { createBrowser, type Tab } from '../../../../realtime/src/__tests__/tabs/tab-env.js'
import { durableOutbox, memoryStorage, type PersistStorage } from '../../entries/persist.js'
import type { Thread } from '../../index.js'
import { createClientOfStyle } from '../client-style.js'
import { setup } from '../helpers.js'
import { heldKeys } from './stored-outbox.js'

// One drainer per key across tabs, elected once over Web Locks: two tabs of a "browser" (one lock
// manager, Node's BroadcastChannel; tab-env.ts) share one stored outbox. Only the elected tab
// sends; when it dies mid-send (its locks freed, its channel silent, its script gone), the other
// is elected, reads the list and sends the write again under the same idempotency key.

const isReply = (input: unknown, init?: RequestInit) =>
  init?.method === 'POST' && String(input).includes('/support/v1/conversations/')

async function page(url: string, storage: PersistStorage, tab: Tab, fetch: typeof globalThis.fetch) {
  const outbox = durableOutbox({
    key: 'handover',
    storage,
    locks: tab.locks,
    BroadcastChannel: tab.BroadcastChannel,
    random: () => 0.5,
    retry: { baseMs: 20, maxMs: 100 },
  })
  const { client } = createClientOfStyle({
    baseUrl: url,
    auth: { url: `${url}/dev/token` },
    fetch,
    outbox,
    retry: false,
  })
  await outbox.ready
  return { outbox, client }
}

async function texts(url: string, conversation: string): Promise<string[]> {
  const { client } = createClientOfStyle({ baseUrl: url, auth: { url: `${url}/dev/token` } })
  const out: string[] = []
  for await (const t of client.support.conversations.threads(conversation, { limit: 100 })) out.push((t as Thread).text)
  return out
}

describe('durableOutbox across tabs', () => {
  it('only the elected tab sends; a leader that dies mid-send hands over: the write is applied once', async () => {
    const { emu } = await setup()
    const browser = createBrowser()
    const storage = memoryStorage()
    let release: () => void = () => undefined
    const gate = new Promise<void>((r) => (release = r))
    const sent = { a: 0, b: 0 }
    const fetchOf =
      (tab: 'a' | 'b'): typeof globalThis.fetch =>
      async (input, init) => {
        if (isReply(input, init) && sent[tab]++ === 0 && tab === 'a') await gate // the leader's send hangs
        return globalThis.fetch(input, init)
      }
    const tabA = browser.tab()
    const a = await page(emu.url, storage, tabA, fetchOf('a'))
    await waitUntil(() => browser.query().held.includes('tandem:outbox:handover:rest:leader'), { what: 'a leads' })
    const b = await page(emu.url, storage, browser.tab(), fetchOf('b'))
    const [conversation] = (await b.client.support.conversations.list({ limit: 1 })).data
    const before = await texts(emu.url, conversation!.id)

    // Made in b (a follower): stored there, sent by a.
    const reply = b.client.support.conversations.reply(conversation!.id, { text: 'handed over' })
    await waitUntil(() => sent.a === 1, { what: 'the leader sends it' })
    await during(50)
    expect(sent.b, 'a follower never sends').toBe(0)
    expect(b.outbox.getSnapshot()).toMatchObject({ status: 'waiting', entries: [expect.anything()] })

    // The leader dies mid-send: the browser frees its locks, its script runs no more.
    tabA.crash()
    a.outbox.stop()
    expect((await reply).text).toBe('handed over')
    expect(sent.b).toBe(1)
    await waitUntil(() => b.outbox.getSnapshot().status === 'idle', { what: 'b drained it' })

    // The dead leader's request reaches the service after all: the same key, applied once.
    release()
    await waitUntil(() => sent.a === 1 && b.outbox.getSnapshot().entries.length === 0)
    await during(100)
    expect((await texts(emu.url, conversation!.id)).slice(before.length)).toEqual(['handed over'])
    expect(await heldKeys(storage, 'handover')).toEqual([])
    b.outbox.stop()
    await waitUntil(() => browser.query().held.length === 0, { what: 'stop lets go of the lock' })
    expect(browser.query().pending).toBe(0)
  })
})
