// The uploads go the way the REST calls do: each tus request takes a slot of the support service's
// client-side rate limit, and the caller's AbortSignal stops the upload and deletes it on the service.
import { UPLOADS } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { uploads } from '../../entries/uploads.js'
import { createClientOfStyle } from '../client-style.js'
import { setup } from '../helpers.js'
import { png } from './files.js'

describe('uploads in the client’s pipeline', () => {
  it('a tus request waits for a slot of the support service’s rate limit (and a cancel takes it out of the queue)', async () => {
    const { emu } = await setup()
    const { client } = createClientOfStyle({
      baseUrl: emu.url,
      auth: { url: `${emu.url}/dev/token` },
      services: { support: { rateLimit: { limit: 1, intervalMs: 10_000 } } },
    })
    const [c] = (await client.support.conversations.list({ limit: 1 })).data // the one slot of the next 10 s
    let queued = 0
    client.on('rateLimit', (s) => void (s.service === 'support' && (queued = s.queued)))
    const call = client.support.conversations
      .reply(c!.id, { text: 'paced', files: [png(2000)] })
      .catch((e: unknown) => e)
    await waitUntil(() => queued === 1, { what: 'the upload’s creation queued' })
    const toUploads = () => emu.log.filter((l) => l.path.startsWith('/support/v1/uploads'))
    expect(toUploads()).toEqual([])
    const [m] = uploads(client).getSnapshot().messages
    expect(await uploads(client).cancel(m!.key)).toBe(true)
    expect(await call).toMatchObject({ code: 'upload_cancelled' })
    expect(queued).toBe(0) // out of the queue at once
    expect(toUploads()).toEqual([])
  })

  it('the caller’s abort: AbortError, the upload deleted, nothing written', async () => {
    const { emu } = await setup()
    emu.faults.latency(100, { service: 'support' })
    const { client } = createClientOfStyle({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    const controller = new AbortController()
    const call = client.support.conversations
      .reply(c!.id, { text: 'aborted', files: [png(UPLOADS.chunkBytes * 4)] }, { signal: controller.signal })
      .catch((e: unknown) => e)
    const progress = uploads(client)
    await waitUntil(() => (progress.getSnapshot().messages[0]?.bytesSent ?? 0) >= UPLOADS.chunkBytes, {
      what: 'a chunk sent',
    })
    controller.abort()
    expect(await call).toMatchObject({ name: 'AbortError' })
    expect(progress.getSnapshot().messages).toEqual([])
    const id = emu.log
      .find((l) => l.method === 'PATCH')!
      .path.split('/')
      .pop()!
    await waitUntil(() => emu.uploads.get(id) === undefined, { what: 'the upload deleted' })
    expect(emu.log.filter((l) => l.method === 'DELETE').map((l) => l.status)).toEqual([204])
    const threads = (await client.support.conversations.threads(c!.id, { limit: 100 })).data
    expect(threads.map((t) => t.text)).not.toContain('aborted')
  })
})
