// A message with files through a durable outbox: the files are stored with the entry, the upload
// URLs as tus makes them; after a "reload" (a new outbox and client on the same storage, as the
// durable-outbox tests do) each file resumes from the service's offset and the write applies once.
import { UPLOADS } from '@tandem/contract'
import { startEmulator } from '@tandem/emulator'
import { describe, expect, it } from 'vitest'
import { during, waitUntil } from '../../../../../test/utils/wait.js'
import { durableOutbox, memoryStorage, type PersistStorage } from '../../entries/persist.js'
import { uploads } from '../../entries/uploads.js'
import type { Thread } from '../../index.js'
import { createClientOfStyle } from '../client-style.js'
import { png, sha256 } from './files.js'

async function page(url: string, storage: PersistStorage, retryMs = 60_000) {
  const outbox = durableOutbox({ key: 'agent:1', storage, random: () => 1, retry: { baseMs: retryMs, maxMs: retryMs } })
  const { client } = createClientOfStyle({ baseUrl: url, auth: { url: `${url}/dev/token` }, outbox, retry: false })
  await outbox.ready
  return { outbox, client }
}

const uploadKeys = async (storage: PersistStorage) =>
  ((await storage.keys!()) as string[]).filter((k) => k.startsWith('agent:1:uploads#'))

describe('durableOutbox with files', () => {
  it('a reload at half the file resumes from the service’s offset (≤ one chunk sent again) and applies once', async () => {
    const emu = await startEmulator()
    try {
      const storage = memoryStorage()
      const first = await page(emu.url, storage)
      const [c] = (await first.client.support.conversations.list({ limit: 1 })).data
      const file = png(UPLOADS.chunkBytes * 4)
      const call = first.client.support.conversations.reply(c!.id, { text: 'with a file', files: [file] })
      call.catch(() => undefined) // its page goes away before it settles
      const progress = uploads(first.client)
      // Half sent: the next PATCH fails (the network "drops"); the entry waits for its (long) backoff.
      await waitUntil(() => (progress.getSnapshot().messages[0]?.bytesSent ?? 0) >= UPLOADS.chunkBytes * 2, {
        what: 'half the file sent',
      })
      emu.faults.failNext(1, { service: 'support', status: 503 })
      await waitUntil(() => progress.getSnapshot().messages[0]?.status === 'failed', { what: 'the upload failed' })
      expect(first.outbox.getSnapshot().entries).toMatchObject([{ files: [{ name: 'shot.png', size: file.size }] }])
      expect(await uploadKeys(storage)).toHaveLength(1)
      first.outbox.stop()

      const id = emu.log
        .find((l) => l.method === 'PATCH')!
        .path.split('/')
        .pop()!
      const held = emu.uploads.get(id)!
      expect(held.offset).toBeGreaterThanOrEqual(UPLOADS.chunkBytes)
      expect(held.complete).toBe(false)

      const second = await page(emu.url, storage, 20)
      await waitUntil(() => second.outbox.getSnapshot().entries.length === 0, { what: 'the write applied' })
      expect(emu.uploads.get(id)).toMatchObject({ complete: true, attachedTo: expect.any(String) })
      expect(emu.uploads.received(id) - file.size).toBeLessThanOrEqual(UPLOADS.chunkBytes)
      expect(await sha256((await emu.uploads.bytes(id))!)).toBe(await sha256(file))
      const threads: Thread[] = []
      for await (const t of second.client.support.conversations.threads(c!.id, { limit: 100 })) threads.push(t)
      const mine = threads.filter((t) => t.text === 'with a file')
      expect(mine).toHaveLength(1)
      expect(mine[0]!.attachments.map((a) => a.id)).toEqual([id])
      expect(emu.log.filter((l) => l.method === 'POST' && l.path.endsWith('/uploads'))).toHaveLength(1)
      expect(await uploadKeys(storage)).toEqual([]) // the saved URL goes once the write settles
      second.outbox.stop()
    } finally {
      await emu.close()
    }
  })

  it('cancel(key): refused, not retried (while it uploads, and while it waits for its retry); uploads deleted', async () => {
    const emu = await startEmulator()
    try {
      emu.faults.latency(100, { service: 'support' })
      const storage = memoryStorage()
      const { outbox, client } = await page(emu.url, storage)
      const refused: string[] = []
      outbox.on('refused', ({ error }) => void refused.push(error.code))
      const [c] = (await client.support.conversations.list({ limit: 1 })).data
      const progress = uploads(client)
      const send = () =>
        client.support.conversations
          .reply(c!.id, { text: 'cancelled', files: [png(UPLOADS.chunkBytes * 3)] })
          .catch((e: unknown) => e)
      const sent = (n: number) => (progress.getSnapshot().messages[0]?.bytesSent ?? 0) >= n

      const uploading = send()
      await waitUntil(() => sent(UPLOADS.chunkBytes), { what: 'a chunk sent' })
      expect(await progress.cancel(progress.getSnapshot().messages[0]!.key)).toBe(true)
      expect(await uploading).toMatchObject({ code: 'upload_cancelled' })
      await waitUntil(() => outbox.getSnapshot().entries.length === 0, { what: 'dropped' })

      const waiting = send()
      await waitUntil(() => sent(UPLOADS.chunkBytes), { what: 'a chunk sent' })
      emu.faults.failNext(1, { service: 'support', status: 503 })
      await waitUntil(() => progress.getSnapshot().messages[0]?.status === 'failed', { what: 'failed for now' })
      expect(outbox.getSnapshot().entries).toHaveLength(1)
      expect(await progress.cancel(progress.getSnapshot().messages[0]!.key)).toBe(true)
      expect(await waiting).toMatchObject({ code: 'upload_cancelled' })
      expect(outbox.getSnapshot().entries).toEqual([])
      expect(progress.getSnapshot().messages).toEqual([])
      expect(refused).toEqual(['upload_cancelled'])
      const patched = [...new Set(emu.log.filter((l) => l.method === 'PATCH').map((l) => l.path.split('/').pop()!))]
      expect(patched).toHaveLength(2)
      for (const id of patched) expect(emu.uploads.get(id)).toBeUndefined()
      const deletes = emu.log.filter((l) => l.method === 'DELETE').map((l) => `${l.path} ${l.status}`)
      expect(deletes.sort()).toEqual(patched.map((id) => `/support/v1/uploads/${id} 204`).sort())
      const threads = (await client.support.conversations.threads(c!.id, { limit: 100 })).data
      expect(threads.map((t) => t.text)).not.toContain('cancelled')
      outbox.stop()
    } finally {
      await emu.close()
    }
  })

  it('remove(id) of a write with files waiting for its retry: progress row ended, saved URL gone, upload deleted', async () => {
    const emu = await startEmulator()
    try {
      const storage = memoryStorage()
      const { outbox, client } = await page(emu.url, storage)
      const [c] = (await client.support.conversations.list({ limit: 1 })).data
      const call = client.support.conversations.reply(c!.id, { text: 'removed', files: [png(UPLOADS.chunkBytes * 3)] })
      call.catch(() => undefined)
      const progress = uploads(client)
      await waitUntil(() => (progress.getSnapshot().messages[0]?.bytesSent ?? 0) >= UPLOADS.chunkBytes, {
        what: 'a chunk sent',
      })
      emu.faults.failNext(1, { service: 'support', status: 503 })
      await waitUntil(() => progress.getSnapshot().messages[0]?.status === 'failed', { what: 'failed for now' })
      const [m] = progress.getSnapshot().messages
      const id = emu.log
        .find((l) => l.method === 'PATCH')!
        .path.split('/')
        .pop()!
      expect(await outbox.remove(outbox.getSnapshot().entries[0]!.id)).toBe(true)
      await expect(call).rejects.toMatchObject({ code: 'outbox_removed' })
      await waitUntil(() => progress.getSnapshot().messages.length === 0, { what: 'the progress row ended' })
      expect(await progress.cancel(m!.key)).toBe(false)
      await waitUntil(() => emu.uploads.get(id) === undefined, { what: 'the upload deleted' })
      for (let i = 0; i < 200 && (await uploadKeys(storage)).length > 0; i++) await during(10)
      expect(await uploadKeys(storage)).toEqual([])
      outbox.stop()
    } finally {
      await emu.close()
    }
  })

  it('the files held are bounded (maxFileBytes): a write whose files would pass it is refused, OutboxFullError', async () => {
    const emu = await startEmulator()
    try {
      emu.faults.latency(200, { service: 'support' })
      const outbox = durableOutbox({ key: 'agent:1', storage: memoryStorage(), maxFileBytes: 5_000 })
      const { client } = createClientOfStyle({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, outbox })
      await outbox.ready
      const [c] = (await client.support.conversations.list({ limit: 1 })).data
      const first = client.support.conversations.reply(c!.id, { text: 'held', files: [png(3_000)] })
      const second = await client.support.conversations
        .reply(c!.id, { text: 'too much', files: [png(3_000)] })
        .catch((e: unknown) => e)
      expect(second).toMatchObject({ name: 'OutboxFullError', code: 'outbox_full' })
      expect((await first).attachments).toHaveLength(1)
      outbox.stop()
    } finally {
      await emu.close()
    }
  })

  it('a restored entry whose files are not Blobs with a name, type and size is dropped, never sent', async () => {
    const { checkEntry } = await import('../../persist/outbox-entries.js')
    const entry = {
      id: 'e1',
      lane: '',
      kind: 'rest',
      idempotencyKey: 'k1',
      createdAt: 1,
      attempts: 0,
      bytes: 10,
      request: { service: 'support', method: 'POST', path: '/v1/conversations/cnv_1/reply', body: { text: '' } },
    }
    const blob = new Blob(['hi'], { type: 'text/plain' })
    expect(checkEntry({ ...entry, files: [{ blob, name: 'a.txt', type: 'text/plain', size: 2 }] })?.error).toBe(
      undefined,
    )
    for (const files of [
      'x',
      [{ blob: 'not a blob', name: 'a.txt', type: 'text/plain', size: 2 }],
      [{ blob, name: 'a.txt', type: 'text/html', size: 2 }],
      [{ blob, name: 'a.txt', type: 'text/plain', size: 3 }],
      [{ blob, type: 'text/plain', size: 2 }],
      Array.from({ length: UPLOADS.filesPerMessage + 1 }, () => ({ blob, name: 'a', type: 'text/plain', size: 2 })),
    ])
      expect(checkEntry({ ...entry, files }), JSON.stringify(files)).toBeUndefined()
  })
})
