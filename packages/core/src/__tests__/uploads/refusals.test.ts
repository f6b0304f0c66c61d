// Files the contract refuses are refused before a byte goes (FileError, typed, nothing sent); the
// service's refusals of an upload come back as the error class a REST refusal of the same status gets.
import { UPLOADS } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { messenger } from '../../entries/messenger.js'
import { uploads } from '../../entries/uploads.js'
import { isApiError, isFileError, isTandemError, isValidationError, type TandemError } from '../../index.js'
import { setup } from '../helpers.js'
import { clientOf, customerOf, png, text } from './files.js'

async function rejection(p: Promise<unknown>): Promise<TandemError> {
  const e: unknown = await p.then(
    () => undefined,
    (x: unknown) => x,
  )
  if (!isTandemError(e)) throw new Error(`expected a TandemError, got ${String(e)}`)
  return e
}

describe('files refused before a byte goes', () => {
  it('too many, too large, a type the service does not take: a FileError naming the file, no request', async () => {
    const { emu } = await setup()
    const client = clientOf(emu)
    let requests = 0
    client.on('request', () => void requests++)
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    requests = 0
    const reply = (files: Blob[]) => rejection(client.support.conversations.reply(c!.id, { text: 'Here', files }))

    const many = await reply(Array.from({ length: UPLOADS.filesPerMessage + 1 }, () => text(10)))
    expect(isFileError(many)).toBe(true)
    expect(many).toMatchObject({ name: 'FileError', code: 'too_many_files', status: undefined })

    const big = new File([new Uint8Array(UPLOADS.maxFileBytes + 1)], 'big.png', { type: 'image/png' })
    const large = await reply([text(10), big])
    expect(large).toMatchObject({ code: 'upload_too_large', details: [{ field: 'files[1]' }] })

    const script = new File(['alert(1)'], 'x.js', { type: 'text/javascript' })
    expect(await reply([script])).toMatchObject({ code: 'upload_type_not_allowed', details: [{ field: 'files[0]' }] })
    expect(await reply([new Blob(['no type'])])).toMatchObject({ code: 'upload_type_not_allowed' })
    expect(isValidationError(await reply(['not a file' as unknown as Blob]))).toBe(true)
    // A name the contract's UPLOAD_NAME refuses (a bidirectional override hides its real extension).
    const spoofed = new File(['x'], 'invoice\u202Etxt.exe', { type: 'text/plain' })
    expect(await reply([spoofed])).toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining('files[0]'),
    })

    // The caller's own attachments count too: 5 ids and one more file is one too many.
    const given = Array.from({ length: UPLOADS.filesPerMessage }, (_, i) => `upl_${String(i).repeat(20)}`)
    const path = `/v1/conversations/${c!.id}/reply`
    const body = { text: 'Here', attachments: given }
    const over = await rejection(client.request({ service: 'support', method: 'POST', path, body, files: [text(10)] }))
    expect(over).toMatchObject({ name: 'FileError', code: 'too_many_files' })

    expect(requests).toBe(0)
    expect(uploads(client).getSnapshot().messages).toEqual([])
    expect(Object.isFrozen(uploads(client).getSnapshot().messages)).toBe(true) // one empty snapshot, unchangeable
    expect(emu.log.filter((line) => line.path.includes('/uploads'))).toEqual([])
  })

  it('a blank text needs files; with files it may be blank', async () => {
    const { emu } = await setup()
    const desk = messenger(customerOf(emu))
    const e = await rejection(desk.conversations.start({ text: '' }))
    expect(isValidationError(e)).toBe(true)
    const started = await desk.conversations.start({ text: '', files: [png(2048)] })
    expect(started.id).toMatch(/^cnv_/)
  })
})

describe('the service’s refusals, typed', () => {
  it('declared image/png, the bytes of a script: 415 upload_type_mismatch, nothing stored', async () => {
    const { emu } = await setup()
    const desk = messenger(customerOf(emu))
    const fake = new File(['<script>alert(1)</script>'], 'shot.png', { type: 'image/png' })
    const e = await rejection(desk.conversations.start({ text: 'See', files: [fake] }))
    expect(isApiError(e)).toBe(true)
    expect(e).toMatchObject({ code: 'upload_type_mismatch', status: 415, requestId: expect.any(String) })
    expect((await desk.conversations.list()).data).toEqual([])
    expect(uploads(desk.client).getSnapshot().messages).toEqual([])
  })

  it('another customer’s upload id: 404 upload_not_found, the message not created', async () => {
    const { emu } = await setup()
    const alice = messenger(customerOf(emu, 'cus_alice'))
    const bob = messenger(customerOf(emu, 'cus_bob'))
    const started = await alice.conversations.start({ text: 'Mine', files: [png(1000)] })
    const [message] = (await alice.conversations.messages(started.id)).data
    const id = message!.attachments[0]!.id
    const mine = await bob.conversations.start({ text: 'Bob here' })
    const e = await rejection(bob.conversations.reply(mine.id, { text: 'Stolen', attachments: [id] }))
    expect(e).toMatchObject({ name: 'ApiError', code: 'upload_not_found', status: 404 })
    expect((await bob.conversations.messages(mine.id)).data).toHaveLength(1)
  })
})
