import { describe, expect, it } from 'vitest'
import type { Conversation, Thread } from '../support/types.js'
import { authed, call, expectError, useEmulator } from './helpers.js'

const emu = useEmulator()
const S = '/support/v1'

interface Page<T> {
  data: T[]
  nextCursor: string | null
}

async function json<T>(path: string, init: Parameters<typeof authed>[2] = {}): Promise<{ status: number; body: T }> {
  const res = await authed(emu(), path, init)
  return { status: res.status, body: (await res.json()) as T }
}

const patch = (id: string, body: unknown) =>
  json<Conversation>(`${S}/conversations/${id}`, { method: 'PATCH', json: body })

let mailboxId = ''
async function create(extra: Record<string, unknown> = {}): Promise<Conversation> {
  mailboxId ||= (await json<Page<{ id: string }>>(`${S}/mailboxes`)).body.data[0]?.id ?? ''
  const { status, body } = await json<Conversation>(`${S}/conversations`, {
    method: 'POST',
    json: {
      mailboxId,
      subject: 'Printer on fire',
      customer: { email: 'Ada@Example.com', name: 'Ada' },
      text: 'It is on fire.',
      ...extra,
    },
  })
  expect(status).toBe(201)
  return body
}

describe('support REST: writes', () => {
  it('creates a conversation that leads the list and has its first customer thread', async () => {
    const c = await create({ tags: ['Urgent ', 'urgent', 'hardware'] })
    expect(c).toMatchObject({
      id: expect.stringMatching(/^cnv_/),
      number: 301,
      mailboxId,
      status: 'active',
      assigneeId: null,
      threadCount: 1,
      customer: { email: 'ada@example.com', name: 'Ada' },
      tags: ['urgent', 'hardware'],
      preview: 'It is on fire.',
      closedAt: null,
    })
    expect(Date.parse(c.createdAt)).toBeGreaterThan(Date.UTC(2025, 0, 1)) // writes use the real clock
    expect((await json<Page<Conversation>>(`${S}/conversations?limit=1`)).body.data[0]?.id).toBe(c.id)
    expect((await json<Conversation>(`${S}/conversations/${c.id}`)).body).toEqual(c)
    const threads = (await json<Page<Thread>>(`${S}/conversations/${c.id}/threads`)).body.data
    expect(threads).toEqual([
      expect.objectContaining({
        type: 'customer',
        text: 'It is on fire.',
        author: expect.objectContaining({ email: 'ada@example.com' }),
      }),
    ])
  })

  it('refuses bad creates with the field named', async () => {
    const post = (json: unknown) => authed(emu(), `${S}/conversations`, { method: 'POST', json })
    const base = { mailboxId: 'x', subject: 's', customer: { email: 'a@b.co' }, text: 't' }
    for (const [body, field] of [
      [{ ...base, customer: { email: 'not-an-email' } }, 'customer.email'],
      [{ ...base, customer: 'ada' }, 'customer'],
      [{ ...base, subject: '' }, 'subject'],
      [{ ...base, text: 3 }, 'text'],
      [{ ...base, status: 'spam' }, 'status'],
      [{ ...base, tags: ['ok', ''] }, 'tags[1]'],
    ] as const) {
      const error = await expectError(await post(body), 400, 'invalid_parameter')
      expect(error.error.details?.[0]).toMatchObject({ field })
    }
    await expectError(await post(base), 422, 'unknown_mailbox')
    await expectError(await authed(emu(), `${S}/conversations`, { method: 'POST' }), 400, 'invalid_body')
  })

  it('validates status transitions; a reply reopens a closed conversation', async () => {
    const c = await create()
    expect((await patch(c.id, { status: 'pending' })).body.status).toBe('pending')
    expect((await patch(c.id, { status: 'active' })).body.status).toBe('active')
    const closed = (await patch(c.id, { status: 'closed' })).body
    expect(closed).toMatchObject({ status: 'closed', closedAt: expect.any(String) })

    const applied = emu().stats.writesApplied
    const again = await patch(c.id, { status: 'closed' })
    expect(again).toEqual({ status: 200, body: closed }) // a no-op: same body, nothing written
    expect(emu().stats.writesApplied).toBe(applied)

    for (const to of ['pending', 'active']) {
      const res = await authed(emu(), `${S}/conversations/${c.id}`, { method: 'PATCH', json: { status: to } })
      const error = await expectError(res, 422, 'invalid_transition')
      expect(error.error.details).toEqual([{ field: 'status', from: 'closed', to }])
    }

    const token = await emu().mintToken({ subject: 'user_42' })
    const res = await authed(emu(), `${S}/conversations/${c.id}/reply`, {
      token,
      method: 'POST',
      json: { text: 'We put it out.' },
    })
    expect(res.status).toBe(201)
    const thread = (await res.json()) as Thread
    expect(thread).toMatchObject({
      type: 'reply',
      text: 'We put it out.',
      conversationId: c.id,
      author: { type: 'agent', id: 'user_42' },
    })
    const reopened = (await json<Conversation>(`${S}/conversations/${c.id}`)).body
    expect(reopened).toMatchObject({ status: 'active', closedAt: null, threadCount: 2, preview: 'We put it out.' })

    const closing = await json<Thread>(`${S}/conversations/${c.id}/reply`, {
      method: 'POST',
      json: { text: 'Bye', status: 'closed' },
    })
    expect(closing.status).toBe(201)
    expect((await json<Conversation>(`${S}/conversations/${c.id}`)).body.status).toBe('closed')
  })

  it('notes never change the status or the preview', async () => {
    const c = (await patch((await create()).id, { status: 'closed' })).body
    const note = await json<Thread>(`${S}/conversations/${c.id}/notes`, {
      method: 'POST',
      json: { text: 'Internal only' },
    })
    expect(note).toMatchObject({ status: 201, body: { type: 'note', text: 'Internal only' } })
    expect((await json<Conversation>(`${S}/conversations/${c.id}`)).body).toMatchObject({
      status: 'closed',
      threadCount: 2,
      preview: c.preview,
    })
    await expectError(
      await authed(emu(), `${S}/conversations/${c.id}/notes`, {
        method: 'POST',
        json: { text: 'x', status: 'active' },
      }),
      400,
      'invalid_parameter',
    )
    await expectError(
      await authed(emu(), `${S}/conversations/cnv_nope/notes`, { method: 'POST', json: { text: 'x' } }),
      404,
      'not_found',
    )
  })

  it('assigns to known agents only, applying nothing from a refused patch', async () => {
    const c = await create()
    const agent = (await json<Page<{ id: string; name: string }>>(`${S}/agents`)).body.data[3]
    expect((await patch(c.id, { assigneeId: agent?.id })).body.assigneeId).toBe(agent?.id)
    const res = await authed(emu(), `${S}/conversations/${c.id}`, {
      method: 'PATCH',
      json: { status: 'pending', assigneeId: 'agt_nope' },
    })
    await expectError(res, 422, 'unknown_assignee')
    expect((await json<Conversation>(`${S}/conversations/${c.id}`)).body).toMatchObject({
      status: 'active',
      assigneeId: agent?.id,
    })
    expect((await patch(c.id, { assigneeId: null, tags: ['VIP'] })).body).toMatchObject({
      assigneeId: null,
      tags: ['vip'],
    })
    // A reply by an agent's own token is authored under the agent's name.
    const token = await emu().mintToken({ subject: agent?.id ?? '' })
    const reply = (await (
      await authed(emu(), `${S}/conversations/${c.id}/reply`, { token, method: 'POST', json: { text: 'On it' } })
    ).json()) as Thread
    expect(reply.author).toMatchObject({ id: agent?.id, name: agent?.name })
  })

  it('support:read can read but not write (403 insufficient_scope)', async () => {
    const c = await create()
    const token = await emu().mintToken({ scope: ['support:read'] })
    expect((await call(emu(), `${S}/conversations/${c.id}`, { token })).status).toBe(200)
    await expectError(
      await call(emu(), `${S}/conversations/${c.id}/reply`, { token, method: 'POST', json: { text: 'x' } }),
      403,
      'insufficient_scope',
    )
    await expectError(
      await call(emu(), `${S}/conversations/${c.id}`, { token, method: 'PATCH', json: { status: 'closed' } }),
      403,
      'insufficient_scope',
    )
  })

  it('an Idempotency-Key replays a reply instead of adding a second thread', async () => {
    const c = await create()
    const init = { method: 'POST', json: { text: 'Once' }, headers: { 'Idempotency-Key': `reply-${c.id}` } }
    const first = await json<Thread>(`${S}/conversations/${c.id}/reply`, init)
    const second = await json<Thread>(`${S}/conversations/${c.id}/reply`, init)
    expect(second).toEqual(first)
    expect((await json<Conversation>(`${S}/conversations/${c.id}`)).body.threadCount).toBe(2)
  })

  it("an agent's Idempotency-Key is its own: Y reusing X's key stores Y's note; X repeating gets the replay", async () => {
    const c = await create()
    const [x, y] = [await emu().mintToken({ subject: 'agt_x' }), await emu().mintToken({ subject: 'agt_y' })]
    const headers = { 'Idempotency-Key': `note-${c.id}` }
    const note = (token: string, text: string) =>
      call(emu(), `${S}/conversations/${c.id}/notes`, { token, method: 'POST', json: { text }, headers })
    const first = await note(x, 'From X')
    const other = await note(y, 'From Y')
    expect(other.status).toBe(201)
    expect(other.headers.get('idempotent-replayed')).toBeNull()
    expect(await other.json()).toMatchObject({ text: 'From Y', author: { id: 'agt_y' } })
    const again = await note(x, 'From X')
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(await first.json())
    const threads = (await json<Page<Thread>>(`${S}/conversations/${c.id}/threads`)).body.data
    expect(threads.map((t) => [t.text, t.author.id])).toEqual([
      ['It is on fire.', null],
      ['From X', 'agt_x'],
      ['From Y', 'agt_y'],
    ])
  })

  it('a walk sees every conversation once even when some change between pages', async () => {
    const before = new Set<string>()
    let cursor: string | null = null
    let touched: Conversation | undefined
    let added: Conversation | undefined
    do {
      const page: Page<Conversation> = (
        await json<Page<Conversation>>(`${S}/conversations?limit=40${cursor ? `&cursor=${cursor}` : ''}`)
      ).body
      for (const c of page.data) {
        expect(before.has(c.id)).toBe(false)
        before.add(c.id)
        if (c.id === touched?.id) expect(c.tags).toEqual(['moved']) // current data, original place
      }
      if (!touched) {
        // A conversation not visited yet jumps to the top of the order, and a new one is created.
        const all: Page<Conversation> = (await json<Page<Conversation>>(`${S}/conversations?limit=100&status=closed`))
          .body
        touched = (await patch(all.data[all.data.length - 1]?.id ?? '', { tags: ['moved'] })).body
        added = await create()
      }
      cursor = page.nextCursor
    } while (cursor)
    expect(before.has(touched?.id ?? '')).toBe(true)
    expect(before.has(added?.id ?? '')).toBe(false)
    const total = (await json<Conversation>(`${S}/conversations/${added?.id ?? ''}`)).body.number
    expect(before.size).toBe(total - 1)
  })

  it('reset() brings back the seeded state', async () => {
    await create()
    emu().reset()
    const first = (await json<Page<Conversation>>(`${S}/conversations?limit=100`)).body
    expect(first.data.every((c) => c.number <= 300)).toBe(true)
    expect(Date.parse(first.data[0]?.modifiedAt ?? '')).toBeLessThanOrEqual(Date.UTC(2025, 0, 1))
  })
})
