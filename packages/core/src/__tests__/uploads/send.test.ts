// A reply with files over real HTTP against the emulator: each file uploaded by tus (in Node, from
// a Blob), its progress in `uploads(client)`, then the write once with the upload ids; the service
// stores the bytes as they were, and the message carries them as attachments.
import { UPLOADS } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { messenger } from '../../entries/messenger.js'
import { uploads, type UploadsSnapshot } from '../../entries/uploads.js'
import { setup } from '../helpers.js'
import { clientOf, customerOf, png, sha256, text } from './files.js'

describe('reply(id, { text, files })', () => {
  it('an agent’s reply with two files: uploaded in chunks, stored as sent, attached once, progress shown', async () => {
    const { emu } = await setup()
    const client = clientOf(emu)
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    const shot = png(UPLOADS.chunkBytes * 2 + 1000)
    const notes = text(300)
    const progress = uploads(client)
    const seen: UploadsSnapshot[] = []
    progress.subscribe(() => seen.push(progress.getSnapshot()))

    const thread = await client.support.conversations.reply(c!.id, { text: 'Here you are', files: [shot, notes] })

    expect(thread.text).toBe('Here you are')
    expect(thread.attachments).toMatchObject([
      { name: 'shot.png', type: 'image/png', size: shot.size, width: 2, height: 3, url: expect.any(String) },
      { name: 'notes.txt', type: 'text/plain', size: 300, width: null, height: null },
    ])
    for (const [i, file] of [shot, notes].entries()) {
      const id = thread.attachments[i]!.id
      expect(await sha256((await emu.uploads.bytes(id))!)).toBe(await sha256(file))
      expect(emu.uploads.get(id)).toMatchObject({ complete: true, attachedTo: expect.any(String) })
    }
    // Progress: per file and per message, growing, 'uploading' then 'sending'; gone once applied.
    const statuses = seen.flatMap((s) => s.messages.map((m) => m.status))
    expect(statuses[0]).toBe('uploading')
    expect(statuses).toContain('sending')
    const sent = seen.flatMap((s) => s.messages.map((m) => m.bytesSent))
    expect(sent).toEqual([...sent].sort((a, b) => a - b))
    expect(sent.at(-1)).toBe(shot.size + notes.size)
    expect(
      seen.some((s) => s.messages[0]?.files[0]?.status === 'done' && s.messages[0].files[1]?.status === 'waiting'),
    ).toBe(true)
    expect(seen.at(-1)!.messages).toEqual([])
    expect(progress.getSnapshot()).toBe(progress.getSnapshot())
  })

  it('a customer’s message with a screenshot; the agent reads it; a note’s files never reach the customer', async () => {
    const { emu } = await setup()
    const desk = messenger(customerOf(emu))
    const started = await desk.conversations.start({ text: 'The error', files: [png(5000)] })
    const mine = await desk.conversations.reply(started.id, { text: '', files: [text(20)] })
    expect(mine.attachments).toMatchObject([{ name: 'notes.txt', type: 'text/plain' }])

    const agent = clientOf(emu)
    await agent.support.conversations.note(started.id, { text: 'internal', files: [text(10, 'secret.txt')] })
    const threads = (await agent.support.conversations.threads(started.id)).data
    expect(threads.flatMap((t) => t.attachments.map((a) => a.name)).sort()).toEqual([
      'notes.txt',
      'secret.txt',
      'shot.png',
    ])
    const seenByCustomer = (await desk.conversations.messages(started.id)).data
    expect(seenByCustomer.flatMap((m) => m.attachments.map((a) => a.name)).sort()).toEqual(['notes.txt', 'shot.png'])
    const download = await fetch(seenByCustomer[0]!.attachments[0]!.url)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toBe('image/png')
  })

  it('cancel(key) mid-upload: the write fails upload_cancelled, the upload is deleted on the service', async () => {
    const { emu } = await setup()
    emu.faults.latency(100, { service: 'support' })
    const client = clientOf(emu)
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    const progress = uploads(client)
    const call = client.support.conversations.reply(c!.id, { text: 'big', files: [png(UPLOADS.chunkBytes * 4)] })
    const failed = call.then(
      () => undefined,
      (e: unknown) => e,
    )
    await waitUntil(() => (progress.getSnapshot().messages[0]?.bytesSent ?? 0) >= UPLOADS.chunkBytes, {
      what: 'a chunk sent',
    })
    const [m] = progress.getSnapshot().messages
    expect(await progress.cancel(m!.key)).toBe(true)
    expect(await failed).toMatchObject({ name: 'TandemError', code: 'upload_cancelled' })
    expect(progress.getSnapshot().messages).toEqual([])
    expect(await progress.cancel(m!.key)).toBe(false)
    const id = emu.log
      .find((l) => l.method === 'PATCH')!
      .path.split('/')
      .pop()!
    expect(emu.uploads.get(id)).toBeUndefined()
    // One DELETE per upload (a second would be a 404 in the page's console).
    expect(emu.log.filter((l) => l.method === 'DELETE').map((l) => `${l.path} ${l.status}`)).toEqual([
      `/support/v1/uploads/${id} 204`,
    ])
    expect((await client.support.conversations.threads(c!.id, { limit: 100 })).data.map((t) => t.text)).not.toContain(
      'big',
    )
  })
})
