import { describe, expect, it } from 'vitest'
import { startEmulator } from '../start.js'
import type { Conversation, Thread } from '../support/types.js'
import type { Emulator } from '../types.js'
import { authed, expectError, useEmulator } from './helpers.js'

const emu = useEmulator({ seed: 7 })

interface Page<T> {
  data: T[]
  nextCursor: string | null
}

async function page<T>(path: string): Promise<Page<T>> {
  const res = await authed(emu(), path)
  expect(res.status, path).toBe(200)
  return (await res.json()) as Page<T>
}

/** Follows nextCursor to the end; returns every item. */
async function walk<T>(path: string, e: Emulator = emu()): Promise<T[]> {
  const all: T[] = []
  let cursor: string | null = null
  do {
    const sep = path.includes('?') ? '&' : '?'
    const res = await authed(e, `${path}${cursor ? `${sep}cursor=${cursor}` : ''}`)
    const p = (await res.json()) as Page<T>
    all.push(...p.data)
    cursor = p.nextCursor
  } while (cursor)
  return all
}

const S = '/support/v1'

describe('support REST: reads', () => {
  it('lists mailboxes and agents, gets one mailbox, 404 for unknown ids', async () => {
    const mailboxes = await page<Record<string, unknown>>(`${S}/mailboxes`)
    expect(mailboxes.data).toHaveLength(4)
    expect(mailboxes.nextCursor).toBeNull()
    const first = mailboxes.data[0] ?? {}
    expect(Object.keys(first).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'slug', 'updatedAt'])
    expect(first.id).toMatch(/^mbx_[a-z0-9]{12}$/)
    expect(await page(`${S}/mailboxes/${String(first.id)}`)).toEqual(first)
    await expectError(await authed(emu(), `${S}/mailboxes/mbx_nope`), 404, 'not_found')
    const agents = await page<{ id: string; email: string }>(`${S}/agents`)
    expect(agents.data).toHaveLength(10)
    expect(agents.data[0]?.id).toMatch(/^agt_/)
  })

  it('answers a page of conversations, most recently modified first', async () => {
    const p = await page<Conversation>(`${S}/conversations`)
    expect(p.data).toHaveLength(20)
    expect(typeof p.nextCursor).toBe('string')
    const c = p.data[0]
    expect(Object.keys(c ?? {}).sort()).toEqual([
      'assigneeId',
      'closedAt',
      'createdAt',
      'customer',
      'customerRead',
      'id',
      'mailboxId',
      'modifiedAt',
      'number',
      'preview',
      'status',
      'subject',
      'tags',
      'threadCount',
    ])
    expect(c?.id).toMatch(/^cnv_/)
    const times = p.data.map((x) => x.modifiedAt)
    expect([...times].sort().reverse()).toEqual(times)
    // Seeded timestamps come from a fixed epoch, never the clock.
    expect(Date.parse(times[0] ?? '')).toBeLessThanOrEqual(Date.UTC(2025, 0, 1))
  })

  it('pagination walks every conversation exactly once, filtered or not', async () => {
    const all = await walk<Conversation>(`${S}/conversations?limit=37`)
    expect(all).toHaveLength(300)
    expect(new Set(all.map((c) => c.id)).size).toBe(300)
    for (const status of ['active', 'pending', 'closed'] as const) {
      const some = await walk<Conversation>(`${S}/conversations?status=${status}&limit=9`)
      expect(some.map((c) => c.id)).toEqual(all.filter((c) => c.status === status).map((c) => c.id))
    }
  })

  it('has 1–8 threads per conversation, customer first', async () => {
    const { data } = await page<Conversation>(`${S}/conversations?limit=30`)
    for (const c of data) {
      const threads = await walk<Thread>(`${S}/conversations/${c.id}/threads?limit=3`)
      expect(threads.length).toBe(c.threadCount)
      expect(threads.length).toBeGreaterThanOrEqual(1)
      expect(threads.length).toBeLessThanOrEqual(8)
      expect(threads[0]).toMatchObject({
        type: 'customer',
        conversationId: c.id,
        author: { type: 'customer', email: c.customer.email },
      })
      expect(threads.every((t) => /^thr_/.test(t.id) && ['customer', 'reply', 'note'].includes(t.type))).toBe(true)
    }
    await expectError(await authed(emu(), `${S}/conversations/cnv_nope/threads`), 404, 'not_found')
  })

  it('filters by mailbox, tag, query and modifiedSince', async () => {
    const all = await walk<Conversation>(`${S}/conversations?limit=100`)
    const mailboxId = all[0]?.mailboxId ?? ''
    expect((await walk<Conversation>(`${S}/conversations?mailboxId=${mailboxId}&limit=100`)).map((c) => c.id)).toEqual(
      all.filter((c) => c.mailboxId === mailboxId).map((c) => c.id),
    )
    const tagged = await walk<Conversation>(`${S}/conversations?tag=BILLING&limit=100`)
    expect(tagged.length).toBeGreaterThan(0)
    expect(tagged.length).toBe(all.filter((c) => c.tags.includes('billing')).length)
    const word = (all[5]?.subject ?? '').split(' ')[0] ?? ''
    const found = await walk<Conversation>(
      `${S}/conversations?query=${encodeURIComponent(word.toUpperCase())}&limit=100`,
    )
    expect(found.map((c) => c.id)).toContain(all[5]?.id)
    const byEmail = await page<Conversation>(
      `${S}/conversations?query=${encodeURIComponent(all[9]?.customer.email ?? '')}`,
    )
    expect(byEmail.data.map((c) => c.id)).toContain(all[9]?.id)
    const since = all[50]?.modifiedAt ?? ''
    const recent = await walk<Conversation>(`${S}/conversations?modifiedSince=${encodeURIComponent(since)}&limit=100`)
    expect(recent.length).toBe(all.filter((c) => c.modifiedAt >= since).length)
    expect(recent.every((c) => c.modifiedAt >= since)).toBe(true)
  })

  it('refuses bad parameters and cursors', async () => {
    const bad = await expectError(
      await authed(emu(), `${S}/conversations?modifiedSince=yesterday`),
      400,
      'invalid_parameter',
    )
    expect(bad.error.details?.[0]).toMatchObject({ field: 'modifiedSince' })
    await expectError(await authed(emu(), `${S}/conversations?status=spam`), 400, 'invalid_parameter')
    await expectError(await authed(emu(), `${S}/conversations?limit=101`), 400, 'invalid_parameter')
    await expectError(await authed(emu(), `${S}/conversations?cursor=%%%`), 400, 'invalid_cursor')
    const mailboxes = await page(`${S}/docs/articles?limit=1`)
    await expectError(
      await authed(emu(), `${S}/conversations?cursor=${mailboxes.nextCursor ?? ''}`),
      400,
      'invalid_cursor',
    )
    await expectError(await authed(emu(), `${S}/conversations/cnv_nope`), 404, 'not_found')
  })

  it('the same seed gives the same data; another seed other data', async () => {
    const twin = await startEmulator({ seed: 7 })
    const other = await startEmulator({ seed: 8 })
    try {
      for (const path of [`${S}/conversations`, `${S}/mailboxes`, `${S}/docs/articles`]) {
        const mine = await page(path)
        expect((await (await authed(twin, path)).json()) as unknown).toEqual(mine)
        expect((await (await authed(other, path)).json()) as unknown).not.toEqual(mine)
      }
    } finally {
      await Promise.all([twin.close(), other.close()])
    }
  })

  it('serves the docs: collections, articles, search, one article', async () => {
    const collections = await page<{ id: string; articleCount: number }>(`${S}/docs/collections`)
    expect(collections.data).toHaveLength(6)
    const articles = await walk<{ id: string; title: string; excerpt: string; collectionId: string }>(
      `${S}/docs/articles?limit=25`,
    )
    expect(articles).toHaveLength(60)
    expect(articles[0]).not.toHaveProperty('text')
    const col = collections.data[1]
    const inCol = await walk<{ collectionId: string }>(`${S}/docs/articles?collectionId=${col?.id ?? ''}`)
    expect(inCol.length).toBe(col?.articleCount)
    expect(inCol.every((a) => a.collectionId === col?.id)).toBe(true)
    const hits = await page<{ title: string }>(`${S}/docs/articles?query=${encodeURIComponent('two-factor')}`)
    expect(hits.data[0]?.title).toBe('Enabling two-factor authentication')
    const one = (await (await authed(emu(), `${S}/docs/articles/${articles[0]?.id ?? ''}`)).json()) as {
      text: string
      title: string
    }
    expect(one.title).toBe(articles[0]?.title)
    expect(one.text.length).toBeGreaterThan(50)
    await expectError(await authed(emu(), `${S}/docs/articles/art_nope`), 404, 'not_found')
  })
})
