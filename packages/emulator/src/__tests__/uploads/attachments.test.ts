// Files on messages: a write that names uploads attaches all of them or none (404 for unknown,
// another's or already attached: one answer; 409 while uploading; 400 past the count), the
// message carries each file with a short-lived signed URL, and a customer never sees a note's.
import { UPLOADS, type Attachment } from '@tandem/contract'
import { beforeAll, describe, expect, it } from 'vitest'
import { call, expectError, useEmulator } from '../helpers.js'
import { agentToken, create, customerToken, idOf, pdf, png, uploaded } from './helpers.js'

const emu = useEmulator({ plans: { support: false }, customerPlan: false })

interface Message {
  id: string
  text: string
  attachments: Attachment[]
}
let agent = ''
beforeAll(async () => {
  agent = await agentToken(emu())
})

const post = async (token: string, path: string, body: unknown, key?: string) => {
  const res = await call(emu(), `/support/v1${path}`, {
    method: 'POST',
    token,
    json: body,
    ...(key ? { headers: { 'Idempotency-Key': key } } : {}),
  })
  return res
}
const threadsOf = async (id: string) =>
  (
    (await (await call(emu(), `/support/v1/conversations/${id}/threads?limit=100`, { token: agent })).json()) as {
      data: Message[]
    }
  ).data
const messagesOf = async (token: string, id: string) =>
  (
    (await (await call(emu(), `/support/v1/me/conversations/${id}/messages?limit=100`, { token })).json()) as {
      data: Message[]
    }
  ).data

/** A customer with a conversation of their own. */
async function customerWithConversation(id: string) {
  const token = await customerToken(emu(), id)
  const started = (await (await post(token, '/me/conversations', { text: 'Hello' })).json()) as { id: string }
  return { token, conversation: started.id }
}

describe('attachments on messages', () => {
  it('a customer sends a screenshot with no text; the agent sees it with its pixel size and a signed URL', async () => {
    const { token, conversation } = await customerWithConversation('cus_shot')
    const id = await uploaded(emu(), token, png(64, 48), 'image/png', 'error.png')
    const res = await post(token, `/me/conversations/${conversation}/messages`, { text: '', attachments: [id] })
    expect(res.status).toBe(201)
    const sent = (await res.json()) as Message
    expect(sent.attachments).toEqual([
      expect.objectContaining({ id, name: 'error.png', type: 'image/png', width: 64, height: 48 }),
    ])
    expect(emu().uploads.get(id)?.attachedTo).toBe(sent.id)
    const seen = (await threadsOf(conversation)).at(-1)!
    expect(seen.attachments[0]).toMatchObject({ id, size: png(64, 48).length, width: 64, height: 48 })
    const url = new URL(seen.attachments[0]!.url)
    expect(url.origin).toBe(emu().url) // where the caller reached the service
    expect(url.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(url.href).not.toMatch(/token|Bearer|key=/i)
    // A message of files alone reads as their names in the conversation's preview.
    const c = (await (await call(emu(), `/support/v1/conversations/${conversation}`, { token: agent })).json()) as {
      preview: string
    }
    expect(c.preview).toBe('error.png')
  })

  it('starts a conversation with files only: its subject is the first file’s name', async () => {
    const token = await customerToken(emu(), 'cus_start_files')
    const id = await uploaded(emu(), token, pdf(), 'application/pdf', 'invoice-42.pdf')
    const res = await post(token, '/me/conversations', { text: '', attachments: [id] })
    expect(res.status).toBe(201)
    expect(((await res.json()) as { subject: string }).subject).toBe('invoice-42.pdf')
  })

  it('refuses a message with neither text nor files (400 invalid_body)', async () => {
    const { token, conversation } = await customerWithConversation('cus_empty')
    await expectError(
      await post(token, `/me/conversations/${conversation}/messages`, { text: ' ' }),
      400,
      'invalid_body',
    )
    await expectError(
      await post(token, `/me/conversations/${conversation}/messages`, { text: '', attachments: [] }),
      400,
      'invalid_body',
    )
    await expectError(await post(agent, `/conversations/${conversation}/reply`, { text: '' }), 400, 'invalid_body')
  })

  it('attaches all or nothing: one bad id refuses the whole write, and the good upload stays free', async () => {
    const ada = await customerWithConversation('cus_atomic')
    const bob = await customerWithConversation('cus_atomic_b')
    const good = await uploaded(emu(), ada.token, Buffer.from('log line'), 'text/plain', 'log.txt')
    const bobs = await uploaded(emu(), bob.token, Buffer.from('mine'), 'text/plain', 'b.txt')
    const before = (await messagesOf(ada.token, ada.conversation)).length
    const path = `/me/conversations/${ada.conversation}/messages`
    // Unknown, another customer's, an agent's: the same 404, no oracle.
    const agents = await uploaded(emu(), agent, pdf(), 'application/pdf', 'internal.pdf')
    for (const bad of ['upl_00000000000000000000', bobs, agents])
      await expectError(
        await post(ada.token, path, { text: 'both', attachments: [good, bad] }),
        404,
        'upload_not_found',
      )
    expect(await messagesOf(ada.token, ada.conversation)).toHaveLength(before)
    expect(emu().uploads.get(good)?.attachedTo).toBeNull()
    // Still uploading: 409, and again nothing written.
    const half = idOf(await create(emu(), ada.token, 100, 'text/plain'))
    await expectError(await post(ada.token, path, { text: 'x', attachments: [good, half] }), 409, 'upload_incomplete')
    expect(await messagesOf(ada.token, ada.conversation)).toHaveLength(before)
    // Past the count: 400 too_many_files.
    const six = Array.from({ length: UPLOADS.filesPerMessage + 1 }, (_, i) => `upl_${String(i).padStart(20, '0')}`)
    await expectError(await post(ada.token, path, { text: 'x', attachments: six }), 400, 'too_many_files')
    // Then it goes, once; the same upload cannot go on a second message.
    expect((await post(ada.token, path, { text: 'ok', attachments: [good] })).status).toBe(201)
    await expectError(await post(ada.token, path, { text: 'again', attachments: [good] }), 404, 'upload_not_found')
    // And an attached upload can no longer be deleted.
    const del = await call(emu(), `/support/v1/uploads/${good}`, {
      method: 'DELETE',
      token: ada.token,
      headers: { 'Tus-Resumable': '1.0.0' },
    })
    await expectError(del, 404, 'upload_not_found')
  })

  it('replays a keyed write with its files once (Idempotency-Key)', async () => {
    const { token, conversation } = await customerWithConversation('cus_replay')
    const id = await uploaded(emu(), token, pdf(), 'application/pdf', 'a.pdf')
    const path = `/me/conversations/${conversation}/messages`
    const first = await post(token, path, { text: 'here', attachments: [id] }, 'files-key-1')
    const again = await post(token, path, { text: 'here', attachments: [id] }, 'files-key-1')
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(((await again.json()) as Message).id).toBe(((await first.json()) as Message).id)
    expect((await messagesOf(token, conversation)).filter((m) => m.attachments.length)).toHaveLength(1)
  })

  it("never shows a customer a note's files; the agent's reply files reach them", async () => {
    const { token, conversation } = await customerWithConversation('cus_notes')
    const secret = await uploaded(emu(), agent, pdf(), 'application/pdf', 'internal-only.pdf')
    const invoice = await uploaded(emu(), agent, pdf(), 'application/pdf', 'invoice.pdf')
    expect(
      (await post(agent, `/conversations/${conversation}/notes`, { text: 'fyi', attachments: [secret] })).status,
    ).toBe(201)
    expect(
      (await post(agent, `/conversations/${conversation}/reply`, { text: '', attachments: [invoice] })).status,
    ).toBe(201)
    const seen = JSON.stringify(await messagesOf(token, conversation))
    expect(seen).not.toContain(secret)
    expect(seen).not.toContain('internal-only')
    expect(seen).toContain(invoice)
    // The agents see both.
    const threads = JSON.stringify(await threadsOf(conversation))
    expect(threads).toContain(secret)
    expect(threads).toContain(invoice)
  })
})
