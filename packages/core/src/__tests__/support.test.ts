import { describe, expect, it } from 'vitest'
import { isApiError, isAuthError, isValidationError, type Conversation, type TandemClient } from '../index.js'
import { setup } from './helpers.js'

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

async function newConversation(
  client: TandemClient,
  extra: Partial<Parameters<TandemClient['support']['conversations']['create']>[0]> = {},
) {
  const [mailbox] = (await client.support.mailboxes.list()).data
  return client.support.conversations.create({
    mailboxId: mailbox?.id ?? '',
    subject: 'Cannot export',
    customer: { email: 'kim@example.com', name: 'Kim' },
    text: 'The export button does nothing.',
    ...extra,
  })
}

describe('client.support', () => {
  it('lists and gets mailboxes, agents and doc collections', async () => {
    const { client } = await setup()
    const mailboxes = await client.support.mailboxes.list()
    expect(mailboxes.data).toHaveLength(4)
    expect(mailboxes.nextCursor).toBeNull()
    const first = mailboxes.data[0]
    expect(first).toMatchObject({
      id: expect.stringMatching(/^mbx_/),
      name: expect.any(String),
      email: expect.stringContaining('@'),
    })
    expect(await client.support.mailboxes.get(first?.id ?? '')).toEqual(first)
    expect(await all(client.support.agents.list({ limit: 3 }))).toHaveLength(10)
    const collections = await client.support.docs.collections()
    expect(collections.data).toHaveLength(6)
    expect(collections.data[0]).toMatchObject({ id: expect.stringMatching(/^col_/), articleCount: expect.any(Number) })
  })

  it('for await walks every conversation exactly once, also filtered', async () => {
    const { client } = await setup()
    const page = await client.support.conversations.list()
    expect(page.data).toHaveLength(20)
    expect(typeof page.nextCursor).toBe('string')
    const everything = await all(client.support.conversations.list({ limit: 100 }))
    expect(everything).toHaveLength(300)
    expect(new Set(everything.map((c) => c.id)).size).toBe(300)
    const pending = await all(client.support.conversations.list({ status: 'pending', limit: 7 }))
    expect(pending.map((c) => c.id)).toEqual(everything.filter((c) => c.status === 'pending').map((c) => c.id))
  })

  it('filters by mailbox, tag, query and modifiedSince (string or Date)', async () => {
    const { client } = await setup()
    const everything = await all(client.support.conversations.list({ limit: 100 }))
    const sample = everything[42] as Conversation
    const inMailbox = await all(client.support.conversations.list({ mailboxId: sample.mailboxId, limit: 100 }))
    expect(inMailbox.length).toBe(everything.filter((c) => c.mailboxId === sample.mailboxId).length)
    const tag = sample.tags[0] ?? 'billing'
    const tagged = await all(client.support.conversations.list({ tag, limit: 100 }))
    expect(tagged.every((c) => c.tags.includes(tag))).toBe(true)
    expect(tagged.map((c) => c.id)).toContain(sample.id)
    const found = await all(client.support.conversations.list({ query: sample.customer.name?.toUpperCase() ?? '' }))
    expect(found.map((c) => c.id)).toContain(sample.id)
    const since = new Date(sample.modifiedAt)
    const recent = await all(client.support.conversations.list({ modifiedSince: since, limit: 100 }))
    expect(recent.length).toBe(everything.filter((c) => c.modifiedAt >= sample.modifiedAt).length)
    expect(recent.length).toBeGreaterThanOrEqual(43) // sample and the 42 listed before it
    expect(await all(client.support.conversations.list({ modifiedSince: sample.modifiedAt, limit: 100 }))).toEqual(
      recent,
    )
  })

  it('creates a conversation that appears in the list and by id, with its threads', async () => {
    const { client } = await setup()
    const created = await newConversation(client, { tags: ['export'] })
    expect(created).toMatchObject({
      status: 'active',
      subject: 'Cannot export',
      customer: { email: 'kim@example.com' },
      tags: ['export'],
      threadCount: 1,
    })
    expect((await client.support.conversations.list({ limit: 1 })).data[0]?.id).toBe(created.id)
    expect(await client.support.conversations.get(created.id)).toEqual(created)
    const threads = await all(client.support.conversations.threads(created.id))
    expect(threads).toMatchObject([{ type: 'customer', text: 'The export button does nothing.' }])
  })

  it('a reply reopens a closed conversation; notes leave the status alone', async () => {
    const { client } = await setup()
    const c = await newConversation(client)
    const closed = await client.support.conversations.update(c.id, { status: 'closed', tags: ['done'] })
    expect(closed).toMatchObject({ status: 'closed', tags: ['done'] })
    expect(await client.support.conversations.update(c.id, { status: 'closed' })).toEqual(closed) // no-op

    const note = await client.support.conversations.note(c.id, { text: 'Customer is on the old plan.' })
    expect(note).toMatchObject({ type: 'note', conversationId: c.id, author: { type: 'agent', id: 'dev-user' } })
    expect((await client.support.conversations.get(c.id)).status).toBe('closed')

    const reply = await client.support.conversations.reply(c.id, { text: 'Fixed in today’s release.' })
    expect(reply).toMatchObject({ type: 'reply', author: { id: 'dev-user' } })
    expect(await client.support.conversations.get(c.id)).toMatchObject({
      status: 'active',
      closedAt: null,
      threadCount: 3,
    })
    expect(await all(client.support.conversations.threads(c.id, { limit: 1 }))).toHaveLength(3)
  })

  it('an invalid transition is an ApiError 422 invalid_transition', async () => {
    const { client } = await setup()
    const c = await newConversation(client, { status: 'closed' })
    const error = await client.support.conversations.update(c.id, { status: 'pending' }).catch((e: unknown) => e)
    expect(isApiError(error)).toBe(true)
    expect(error).toMatchObject({
      status: 422,
      code: 'invalid_transition',
      details: [{ from: 'closed', to: 'pending' }],
    })
    const unknown = await client.support.conversations
      .update(c.id, { assigneeId: 'agt_nobody' })
      .catch((e: unknown) => e)
    expect(unknown).toMatchObject({ name: 'ApiError', status: 422, code: 'unknown_assignee' })
  })

  it('a token without support:write cannot reply (AuthError 403 insufficient_scope)', async () => {
    const { client } = await setup({
      client: (emu) => ({
        auth: { fetchToken: async () => ({ token: await emu.mintToken({ scope: ['support:read'] }), expiresIn: 600 }) },
      }),
    })
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    const error = await client.support.conversations.reply(c?.id ?? '', { text: 'Hi' }).catch((e: unknown) => e)
    expect(isAuthError(error)).toBe(true)
    expect(error).toMatchObject({ status: 403, code: 'insufficient_scope' })
  })

  it('refuses bad input locally, naming the field, without sending anything', async () => {
    const { emu, client } = await setup()
    const s = client.support
    const valid = { mailboxId: 'mbx_1', subject: 'Hi', customer: { email: 'a@b.co' }, text: 'Hello' }
    const bad = <T>(call: () => Promise<T>, field: string) => ({ call, field })
    const cases = [
      bad(() => s.conversations.create({ ...valid, customer: { email: 'not-an-email' } }), 'customer.email'),
      bad(() => s.conversations.create({ ...valid, customer: undefined as never }), 'customer'),
      bad(() => s.conversations.create({ ...valid, subject: '' }), 'subject'),
      bad(() => s.conversations.create({ ...valid, tags: ['ok', 'x'.repeat(51)] }), 'tags[1]'),
      bad(() => s.conversations.create({ ...valid, status: 'open' as never }), 'status'),
      bad(() => s.conversations.list({ status: 'spam' as never }), 'status'),
      bad(() => s.conversations.list({ modifiedSince: 'yesterday' }), 'modifiedSince'),
      bad(() => s.conversations.list({ modifiedSince: new Date(NaN) }), 'modifiedSince'),
      bad(() => s.conversations.list({ limit: 0 }), 'limit'),
      bad(() => s.conversations.update('', { status: 'closed' }), 'id'),
      bad(() => s.conversations.update('cnv_1', { assigneeId: 42 as never }), 'assigneeId'),
      bad(() => s.conversations.reply('cnv_1', { text: '  ' }), 'text'),
      bad(() => s.conversations.note('cnv_1', { text: undefined as never }), 'text'),
      bad(() => s.conversations.threads('cnv_1', { cursor: 5 as never }), 'cursor'),
      bad(() => s.docs.search({ query: '' }), 'query'),
      bad(() => s.docs.get('..'), 'id'),
    ]
    for (const { call, field } of cases) {
      let promise: Promise<unknown> | undefined
      expect(() => {
        promise = call()
      }).not.toThrow() // rejects, never throws synchronously
      const error = await promise?.catch((e: unknown) => e)
      expect(isValidationError(error), field).toBe(true)
      expect(error).toMatchObject({ field })
    }
    expect(emu.stats.requests).toBe(0)
    expect(emu.stats.tokenRequests).toBe(0)
  })

  it('docs: search finds an article by a word of its title; list and get', async () => {
    const { client } = await setup()
    const articles = await all(client.support.docs.list({ limit: 50 }))
    expect(articles).toHaveLength(60)
    const target = articles.find((a) => a.title.includes('webhook')) ?? articles[0]
    const word = target?.title.split(' ').find((w) => w.length > 5) ?? ''
    const hits = await client.support.docs.search({ query: word })
    expect(hits.data.map((a) => a.id)).toContain(target?.id)
    expect(hits.data[0]).toMatchObject({ excerpt: expect.any(String) })
    const full = await client.support.docs.get(target?.id ?? '')
    expect(full).toMatchObject({
      id: target?.id,
      title: target?.title,
      text: expect.stringContaining(target?.title ?? ''),
    })
    const inCollection = await all(client.support.docs.list({ collectionId: full.collectionId }))
    expect(inCollection.length).toBe(10)
    expect(inCollection.every((a) => a.collectionId === full.collectionId)).toBe(true)
  })
})
