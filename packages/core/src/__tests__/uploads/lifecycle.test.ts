// When a write with files is over, its uploads do not linger on the service (they count against
// the caller's quota): a write that fails for good deletes them, a logout mid-upload stops the
// sender (nothing is written after it) and deletes them, a cancel during the upload's creation
// lets the creation answer and deletes what it made. A 429 on an upload is waited, as REST's is.
import { UPLOADS } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { during, waitUntil } from '../../../../../test/utils/wait.js'
import { durableOutbox, memoryStorage } from '../../entries/persist.js'
import { uploads } from '../../entries/uploads.js'
import { createClientOfStyle } from '../client-style.js'
import { setup } from '../helpers.js'
import { png } from './files.js'

const uploadIds = (log: { method: string; path: string }[]) => [
  ...new Set(log.filter((l) => l.path.startsWith('/support/v1/uploads/')).map((l) => l.path.split('/').pop()!)),
]

describe('an upload’s life ends with its write', () => {
  it('without an outbox, a write that fails for good (refused, or an upload failing) deletes its uploads', async () => {
    const { emu } = await setup()
    const { client } = createClientOfStyle({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, retry: false })
    const refused = await client.support.conversations
      .reply('cnv_missing', { text: 'nowhere', files: [png(UPLOADS.chunkBytes + 10)] })
      .catch((e: unknown) => e)
    expect(refused).toMatchObject({ name: 'ApiError', status: 404 })
    const [first] = uploadIds(emu.log)
    await waitUntil(() => emu.uploads.get(first!) === undefined, { what: 'the refused write’s upload deleted' })

    emu.faults.latency(50, { service: 'support' })
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    const call = client.support.conversations
      .reply(c!.id, { text: 'cut', files: [png(UPLOADS.chunkBytes * 4)] })
      .catch((e: unknown) => e)
    await waitUntil(() => (uploads(client).getSnapshot().messages[0]?.bytesSent ?? 0) >= UPLOADS.chunkBytes, {
      what: 'a chunk sent',
    })
    emu.faults.failNext(1, { service: 'support', status: 503 })
    expect(await call).toMatchObject({ status: 503 })
    const second = uploadIds(emu.log).find((id) => id !== first)!
    await waitUntil(() => emu.uploads.get(second) === undefined, { what: 'the failed write’s upload deleted' })
  })

  it('a logout (clearPersisted) mid-upload: the sender stops, its upload is deleted, the write never sent', async () => {
    const { emu } = await setup()
    emu.faults.latency(50, { service: 'support' })
    const outbox = durableOutbox({ key: 'agent:1', storage: memoryStorage(), random: () => 1 })
    const { client } = createClientOfStyle({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, outbox })
    await outbox.ready
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    const call = client.support.conversations
      .reply(c!.id, { text: 'logged out', files: [png(UPLOADS.chunkBytes * 4)] })
      .catch((e: unknown) => e)
    await waitUntil(() => (uploads(client).getSnapshot().messages[0]?.bytesSent ?? 0) >= UPLOADS.chunkBytes, {
      what: 'a chunk sent',
    })
    await outbox.clearPersisted()
    expect(await call).toMatchObject({ code: 'outbox_cleared' })
    const [id] = uploadIds(emu.log)
    await waitUntil(() => emu.uploads.get(id!) === undefined, { what: 'the upload deleted' })
    await waitUntil(() => uploads(client).getSnapshot().messages.length === 0, { what: 'its progress row gone' })
    await during(200)
    expect(emu.log.filter((l) => l.path.endsWith('/reply'))).toEqual([])
  })

  it('a stop (the page goes) mid-upload: the upload stays on the service, and the next page resumes it once', async () => {
    const { emu } = await setup()
    emu.faults.latency(50, { service: 'support' })
    const storage = memoryStorage()
    const outbox = durableOutbox({ key: 'agent:2', storage, random: () => 1 })
    const { client } = createClientOfStyle({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, outbox })
    await outbox.ready
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    const call = client.support.conversations
      .reply(c!.id, { text: 'kept', files: [png(UPLOADS.chunkBytes * 4)] })
      .catch((e: unknown) => e)
    await waitUntil(() => (uploads(client).getSnapshot().messages[0]?.bytesSent ?? 0) >= UPLOADS.chunkBytes, {
      what: 'a chunk sent',
    })
    outbox.stop()
    expect(await call).toMatchObject({ code: 'outbox_stopped' })
    const [id] = uploadIds(emu.log)
    await during(300)
    expect(emu.uploads.get(id!), 'the upload kept for the next page').toBeDefined()
    expect(emu.log.filter((l) => l.method === 'DELETE')).toEqual([])

    emu.faults.clear()
    const next = durableOutbox({ key: 'agent:2', storage, random: () => 1 })
    createClientOfStyle({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, outbox: next })
    await waitUntil(() => emu.uploads.get(id!)?.attachedTo != null, { what: 'the same upload attached' })
    expect(emu.log.filter((l) => l.method === 'POST' && l.path === '/support/v1/uploads')).toHaveLength(1)
    next.stop()
  })

  it('a cancel while the upload is being created: the creation answers, then the upload is deleted', async () => {
    const { emu } = await setup()
    const { client } = createClientOfStyle({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    emu.faults.latency(1_500, { service: 'support', count: 1 }) // the creation POST
    const call = client.support.conversations
      .reply(c!.id, { text: 'cancelled early', files: [png(2000)] })
      .catch((e: unknown) => e)
    const progress = uploads(client)
    await waitUntil(() => progress.getSnapshot().messages.length === 1, { what: 'the write under way' })
    await during(300) // the POST is on its way (its answer comes after the latency)
    expect(await progress.cancel(progress.getSnapshot().messages[0]!.key)).toBe(true)
    expect(await call).toMatchObject({ code: 'upload_cancelled' })
    await waitUntil(() => emu.log.some((l) => l.method === 'DELETE'), { what: 'the DELETE' })
    const toUploads = emu.log.filter((l) => l.path.startsWith('/support/v1/uploads'))
    expect(toUploads.map((l) => `${l.method} ${l.status}`)).toEqual(['POST 201', 'DELETE 204'])
    expect(emu.uploads.get(uploadIds(emu.log)[0]!)).toBeUndefined()
  })

  it('an upload answered 429: its Retry-After waited, then it goes on', async () => {
    const { emu } = await setup()
    const { client } = createClientOfStyle({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, retry: false })
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    emu.faults.rateLimitNext(1, { service: 'support', retryAfterSeconds: 1 })
    const thread = await client.support.conversations.reply(c!.id, { text: 'paced', files: [png(2000)] })
    expect(thread.attachments).toHaveLength(1)
    const toUploads = emu.log.filter((l) => l.path.startsWith('/support/v1/uploads'))
    expect(toUploads.map((l) => `${l.method} ${l.status}`)).toEqual(['POST 429', 'POST 201', 'PATCH 204'])
  })
})
