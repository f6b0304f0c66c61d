// A saved upload resumes only on the service's word: the SDK asks its offset itself (HEAD); only a
// 404/410 starts a new upload. A HEAD that fails otherwise, or a busy/moved upload (423/409), is a
// failure for now: the outbox sends the write again after its backoff and the same upload goes on.
import { UPLOADS } from '@tandem/contract'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { afterEach, describe, expect, it } from 'vitest'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { durableOutbox, memoryStorage, type PersistStorage } from '../../entries/persist.js'
import { uploads } from '../../entries/uploads.js'
import { createClientOfStyle } from '../client-style.js'
import { png } from './files.js'

const open: Emulator[] = []
afterEach(async () => Promise.all(open.splice(0).map((e) => e.close())))

async function page(url: string, storage: PersistStorage, retryMs: number) {
  const outbox = durableOutbox({ key: 'agent:1', storage, random: () => 1, retry: { baseMs: retryMs, maxMs: retryMs } })
  const { client } = createClientOfStyle({ baseUrl: url, auth: { url: `${url}/dev/token` }, outbox, retry: false })
  await outbox.ready
  return { outbox, client }
}

const creations = (emu: Emulator) => emu.log.filter((l) => l.method === 'POST' && l.path.endsWith('/uploads'))
const uploadId = (emu: Emulator) =>
  emu.log
    .find((l) => l.method === 'PATCH')!
    .path.split('/')
    .pop()!

/** A page that sent half a file, failed for now, and went away (its outbox stopped). */
async function halfSent(emu: Emulator, storage: PersistStorage, file: File) {
  const first = await page(emu.url, storage, 60_000)
  const [c] = (await first.client.support.conversations.list({ limit: 1 })).data
  first.client.support.conversations.reply(c!.id, { text: 'resumed', files: [file] }).catch(() => undefined)
  const progress = uploads(first.client)
  await waitUntil(() => (progress.getSnapshot().messages[0]?.bytesSent ?? 0) >= UPLOADS.chunkBytes * 2, {
    what: 'half the file sent',
  })
  emu.faults.failNext(1, { service: 'support', status: 503 })
  await waitUntil(() => progress.getSnapshot().messages[0]?.status === 'failed', { what: 'failed for now' })
  first.outbox.stop()
  return c!.id
}

describe('resuming a saved upload', () => {
  it('a resume HEAD answered 503: sent again after the backoff, the same upload goes on (no new one)', async () => {
    const emu = await startEmulator()
    open.push(emu)
    const storage = memoryStorage()
    const file = png(UPLOADS.chunkBytes * 4)
    const conversation = await halfSent(emu, storage, file)
    const id = uploadId(emu)

    emu.faults.failNext(1, { service: 'support', status: 503 }) // the reloaded page's first request: the HEAD
    const second = await page(emu.url, storage, 20)
    await waitUntil(() => second.outbox.getSnapshot().entries.length === 0, { what: 'the write applied' })
    expect(creations(emu)).toHaveLength(1)
    expect(emu.uploads.received(id) - file.size).toBeLessThanOrEqual(UPLOADS.chunkBytes)
    const threads = (await second.client.support.conversations.threads(conversation, { limit: 100 })).data
    expect(threads.filter((t) => t.text === 'resumed').map((t) => t.attachments.map((a) => a.id))).toEqual([[id]])
    second.outbox.stop()
  })

  it('a PATCH answered 409 (the offset moved) or 423 (busy): a failure for now, not a refusal', async () => {
    const emu = await startEmulator()
    open.push(emu)
    emu.faults.latency(50, { service: 'support' })
    const storage = memoryStorage()
    const { outbox, client } = await page(emu.url, storage, 20)
    const refused: string[] = []
    outbox.on('refused', ({ error }) => void refused.push(error.code))
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    const call = client.support.conversations.reply(c!.id, { text: 'busy', files: [png(UPLOADS.chunkBytes * 4)] })
    const progress = uploads(client)
    await waitUntil(() => (progress.getSnapshot().messages[0]?.bytesSent ?? 0) >= UPLOADS.chunkBytes, {
      what: 'a chunk sent',
    })
    const body = (code: string) => JSON.stringify({ error: { code, message: code } })
    emu.faults.respondNext(1, { service: 'support', status: 409, body: body('invalid_parameter') })
    emu.faults.respondNext(1, { service: 'support', status: 423, body: body('locked') })
    const thread = await call
    expect(refused).toEqual([])
    expect(thread.attachments).toHaveLength(1)
    expect(creations(emu)).toHaveLength(1)
    outbox.stop()
  })
})
