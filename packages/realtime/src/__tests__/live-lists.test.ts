// Live lists that stay true: a list bound to its collection's channel equals what `list()` would
// answer after each change, with the service's filters and order, across two clients on real
// sockets against the emulator. The writer is another client; the reader never refetches
// unless only the service can tell (a free-text query).
import {
  bindLiveResources,
  createClient,
  listQuery,
  type Conversation,
  type ConversationListParams,
  type TandemClient,
} from '@tandem/core'
import type { Emulator } from '@tandem/emulator'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { createRealtime, type Realtime } from '../index.js'
import { useEmulator } from './helpers.js'

// Writes are not rate limited here: the test makes a thousand of them.
const emu = useEmulator({ plans: { support: { limit: 100_000 }, realtime: { limit: 100_000 } } })

const closers: (() => void)[] = []
afterEach(() => closers.splice(0).forEach((close) => close()))

function reader(e: Emulator, subject: string): { client: TandemClient; rt: Realtime; gets: () => number } {
  const auth = {
    fetchToken: async () => ({
      token: await e.mintToken({ subject, scope: ['support:read', 'realtime'] }),
      expiresIn: 600,
    }),
  }
  const client = createClient({ baseUrl: e.url, auth, services: { support: { rateLimit: false } } })
  let gets = 0
  client.on('request', (r) => void (r.method === 'GET' && r.path === '/v1/conversations' && gets++))
  const rt = createRealtime({ client }, { WebSocket })
  closers.push(
    () => rt.close(),
    () => client.cache.clear(),
  )
  return { client, rt, gets: () => gets }
}

function writer(e: Emulator, subject: string): TandemClient {
  const auth = {
    fetchToken: async () => ({ token: await e.mintToken({ subject, scope: ['support:write'] }), expiresIn: 600 }),
  }
  return createClient({ baseUrl: e.url, auth, services: { support: { rateLimit: false } } })
}

/** A live list of conversations, loaded and bound; `ids()` is what it shows. */
async function live(client: TandemClient, rt: Realtime, params: ConversationListParams) {
  const query = listQuery('support/conversations', params as never)
  const entry = client.cache.get(query)
  const off = entry.subscribe(() => {})
  closers.push(off, bindLiveResources(rt, client.cache, query))
  await vi.waitFor(() => expect(entry.getSnapshot().status).toBe('success'), { timeout: 5_000 })
  await vi.waitFor(() => expect(rt.channel('support:conversations').state).toBe('subscribed'), { timeout: 5_000 })
  // A subscription that came after the first answer refetches once: let that settle before counting.
  await vi.waitFor(() => expect(entry.getSnapshot().isFetching).toBe(false), { timeout: 5_000 })
  return {
    entry,
    items: () => entry.getSnapshot().items,
    ids: () => entry.getSnapshot().items.map((c) => c.id),
  }
}

/** What the service answers now for `params`, as many items as `count`. */
async function fresh(client: TandemClient, params: ConversationListParams, count: number): Promise<string[]> {
  const ids: string[] = []
  for await (const c of client.support.conversations.list({ ...params, limit: 100 })) {
    if (ids.length >= count) break
    ids.push(c.id)
  }
  return ids
}

describe('live lists keep the service’s filter and order', () => {
  it('a status change leaves a filtered list within one event, with no request', async () => {
    const { client, rt, gets } = reader(emu(), 'agent_a')
    const active = await live(client, rt, { status: 'active', limit: 10 })
    const before = gets()
    const target = active.items()[3]!
    await writer(emu(), 'agent_b').support.conversations.update(target.id, { status: 'pending' })
    await vi.waitFor(() => expect(active.ids()).not.toContain(target.id), { timeout: 5_000 })
    expect(active.items().every((c) => c.status === 'active')).toBe(true)
    expect(gets()).toBe(before) // placed from the event alone
  })

  it('a pushed item that is not the contract’s is never placed: the list is asked again instead (issue 43)', async () => {
    const { client, rt, gets } = reader(emu(), 'agent_a')
    const all = await live(client, rt, { limit: 10 })
    const before = gets()
    const target = all.items()[2]!
    const shown = all.items()
    // On the collection's channel, as the service would: an update whose item lacks fields and has a numeric status.
    emu().realtime.publish('support:conversations', 'updated', { item: { id: target.id, status: 42, subject: 7 } })
    await vi.waitFor(() => expect(gets()).toBe(before + 1), { timeout: 5_000 })
    await vi.waitFor(() => expect(all.entry.getSnapshot().isFetching).toBe(false), { timeout: 5_000 })
    expect(all.items().find((c) => c.id === target.id)).toEqual(target) // the service's answer, not the push
    expect(all.items()).toEqual(shown)
  })

  it('a reply moves the item to the top of every open list', async () => {
    const { client, rt, gets } = reader(emu(), 'agent_a')
    const all = await live(client, rt, { limit: 20 })
    const before = gets()
    const seventh = all.items()[6]!
    await writer(emu(), 'agent_b').support.conversations.reply(seventh.id, { text: 'On it.' })
    await vi.waitFor(() => expect(all.ids()[0]).toBe(seventh.id), { timeout: 5_000 })
    expect(all.ids()).toHaveLength(20) // moved, not added
    expect(new Set(all.ids()).size).toBe(20)
    expect(all.ids()).toEqual(await fresh(client, { limit: 20 }, 20))
    expect(gets() - before).toBe(1) // only the check above
  })

  it('a created item appears only in the lists whose filter it matches', async () => {
    const { client, rt } = reader(emu(), 'agent_a')
    const { data: mailboxes } = await client.support.mailboxes.list()
    const [a, b] = mailboxes
    const pending = await live(client, rt, { status: 'pending', limit: 10 })
    const active = await live(client, rt, { status: 'active', limit: 10 })
    const inA = await live(client, rt, { mailboxId: a!.id, limit: 10 })
    const created = await writer(emu(), 'agent_b').support.conversations.create({
      mailboxId: b!.id,
      subject: 'Live filters',
      customer: { email: 'kim@example.com' },
      text: 'Hello',
      status: 'pending',
    })
    await vi.waitFor(() => expect(pending.ids()[0]).toBe(created.id), { timeout: 5_000 })
    expect(active.ids()).not.toContain(created.id)
    expect(inA.ids()).not.toContain(created.id)
  })

  it('after 1,000 random writes by 3 other clients, 20 live lists each equal a fresh list()', async () => {
    const { client, rt, gets } = reader(emu(), 'agent_a')
    const { data: mailboxes } = await client.support.mailboxes.list()
    const statuses = [undefined, 'active', 'pending', 'closed'] as const
    const combos: ConversationListParams[] = []
    for (const status of statuses)
      for (const mailboxId of [undefined, mailboxes[0]!.id, mailboxes[1]!.id])
        combos.push({ ...(status && { status }), ...(mailboxId && { mailboxId }), limit: 15 })
    combos.push({ tag: 'billing', limit: 10 }, { tag: 'vip', status: 'active', limit: 10 })
    combos.push({ modifiedSince: new Date(Date.now() - 60_000).toISOString(), limit: 20 })
    combos.push({ query: 'refund', limit: 10 }, { query: 'order', status: 'active', limit: 10 })
    combos.push({ status: 'active', mailboxId: mailboxes[2]!.id, limit: 5 }, { limit: 50 }, { limit: 3 })
    expect(combos).toHaveLength(20)
    const lists = await Promise.all(combos.map((params) => live(client, rt, params)))

    // Three writers, a seeded sequence of updates, replies, notes and creations.
    const writers = ['agent_b', 'agent_c', 'agent_d'].map((s) => writer(emu(), s))
    let seed = 42
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
    const ids = (await fresh(client, {}, 300)).slice(0, 120) // writes touch items inside and outside windows
    const tags = ['billing', 'vip', 'bug', 'refund']
    const write = async (w: TandemClient): Promise<void> => {
      const id = pick(ids)
      const roll = random()
      if (roll < 0.45) await w.support.conversations.update(id, { status: pick(['active', 'pending'] as const) })
      else if (roll < 0.6) await w.support.conversations.update(id, { tags: [pick(tags)] })
      else if (roll < 0.8) await w.support.conversations.reply(id, { text: 'A refund for order 7' })
      else if (roll < 0.9) await w.support.conversations.note(id, { text: 'noted' })
      else {
        const c = await w.support.conversations.create({
          mailboxId: pick(mailboxes).id,
          subject: 'Order question',
          customer: { email: 'lee@example.com' },
          text: 'Where is my order?',
          tags: [pick(tags)],
          status: pick(['active', 'pending'] as const),
        })
        ids.push(c.id)
      }
    }
    // A closed conversation refuses a status change (422): those writes publish nothing, fine.
    for (let i = 0; i < 1_000; i += 3) await Promise.all(writers.map((w) => write(w).catch(() => {})))

    // Quiet: every event delivered and every coalesced refetch settled, then compare.
    const beforeCompare = gets()
    await vi.waitFor(
      async () => {
        for (const [i, list] of lists.entries()) {
          expect(list.entry.getSnapshot().isFetching, `list ${i} settled`).toBe(false)
          const shown = list.ids()
          expect(shown, `list ${i}: ${JSON.stringify(combos[i])}`).toEqual(
            await fresh(client, combos[i]!, shown.length),
          )
          const s = list.items() as Conversation[]
          for (let k = 1; k < s.length; k++) expect(s[k - 1]!.modifiedAt >= s[k]!.modifiedAt).toBe(true)
        }
      },
      { timeout: 15_000, interval: 300 },
    )
    // Kept by events: refetches only for the two free-text lists, coalesced, never one per event
    // (each of the 1,000 writes is an event for both).
    expect(beforeCompare - 2 * combos.length).toBeLessThan(1_000)
  }, 60_000)
})

describe('a live list that cannot be live says so (issue 18, finding 5)', () => {
  const bound = (scope: string[], withSocket: boolean) => {
    const auth = {
      fetchToken: async () => ({ token: await emu().mintToken({ subject: 'ro', scope }), expiresIn: 600 }),
    }
    const client = createClient({ baseUrl: emu().url, auth })
    const rt = createRealtime({ client }, withSocket ? { WebSocket } : {})
    const query = listQuery('support/conversations', { status: 'active' })
    const snapshots: { status: string; liveError: Error | null }[] = []
    const unwatch = client.cache.watch(query, (s) => snapshots.push(s))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const unbind = bindLiveResources(rt, client.cache, query)
    const unbind2 = bindLiveResources(rt, client.cache, listQuery('support/conversations', { status: 'pending' }))
    closers.push(
      unbind,
      unbind2,
      unwatch,
      () => rt.close(),
      () => client.cache.clear(),
      () => warn.mockRestore(),
    )
    return { snapshots, warn }
  }

  it("the README's quick-start scope (no realtime): liveError forbidden, the data still there, one warning", async () => {
    const { snapshots, warn } = bound(['maps', 'support:read'], true)
    await vi.waitFor(
      () => expect(snapshots.at(-1)).toMatchObject({ status: 'success', liveError: { code: 'forbidden' } }),
      {
        timeout: 5_000,
      },
    )
    expect(warn).toHaveBeenCalledTimes(1) // two lists on one failed channel: one warning
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/live list on support:conversations is not live: .+/)
  })

  it('a connection that cannot work (no WebSocket on Node 20): liveError no_websocket at once', async () => {
    const { snapshots, warn } = bound(['support:read', 'realtime'], false)
    expect(snapshots.at(-1)?.liveError).toMatchObject({ name: 'RealtimeError', code: 'no_websocket' })
    expect(warn).toHaveBeenCalledTimes(1)
  })
})
