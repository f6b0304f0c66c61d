// What the uploader does not take on trust: a saved upload URL that is not an upload of the
// client's endpoint (another host, or dot segments leading out of it: storage may hold anything)
// is never requested, a new upload is made instead;
// a refused token gets the REST pipeline's one replay with a fresh token, the token in a header.
import { UPLOADS } from '@tandem/contract'
import { startEmulator, type Emulator } from '@tandem/emulator'
import { afterEach, describe, expect, it } from 'vitest'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { durableOutbox, memoryStorage, type PersistStorage } from '../../entries/persist.js'
import { uploads } from '../../entries/uploads.js'
import { createClientOfStyle } from '../client-style.js'
import { setup } from '../helpers.js'
import { png } from './files.js'

const open: Emulator[] = []
afterEach(async () => Promise.all(open.splice(0).map((e) => e.close())))

async function page(url: string, storage: PersistStorage, retryMs: number) {
  const outbox = durableOutbox({ key: 'agent:1', storage, random: () => 1, retry: { baseMs: retryMs, maxMs: retryMs } })
  const { client } = createClientOfStyle({ baseUrl: url, auth: { url: `${url}/dev/token` }, outbox, retry: false })
  await outbox.ready
  return { outbox, client }
}

describe('the uploader trusts no saved URL and no token', () => {
  it('a saved URL of another host is never requested: the file is uploaded anew, the write applied once', async () => {
    const emu = await startEmulator()
    const foreign = await startEmulator()
    open.push(emu, foreign)
    const storage = memoryStorage()
    const first = await page(emu.url, storage, 60_000)
    const [c] = (await first.client.support.conversations.list({ limit: 1 })).data
    emu.faults.failNext(1, { service: 'support', status: 503 }) // the upload's creation fails for now
    const call = first.client.support.conversations.reply(c!.id, { text: 'resent', files: [png(UPLOADS.chunkBytes)] })
    call.catch(() => undefined)
    await waitUntil(() => uploads(first.client).getSnapshot().messages[0]?.status === 'failed', { what: 'failed' })
    const [entry] = first.outbox.getSnapshot().entries
    first.outbox.stop()
    // What a stranger (or another version) left where the outbox keeps the upload's URL.
    const stranger = `${foreign.url}/support/v1/uploads/upl_${'a'.repeat(24)}`
    await storage.set(`agent:1:uploads#${encodeURIComponent(entry!.idempotencyKey)}`, { v: 1, urls: [stranger] })

    const second = await page(emu.url, storage, 20)
    await waitUntil(() => second.outbox.getSnapshot().entries.length === 0, { what: 'applied' })
    expect(foreign.log).toEqual([])
    const threads = (await second.client.support.conversations.threads(c!.id, { limit: 100 })).data
    expect(threads.filter((t) => t.text === 'resent').map((t) => t.attachments.length)).toEqual([1])
    second.outbox.stop()
  })

  it('a saved URL whose dot segments lead out of the endpoint is never requested', async () => {
    const emu = await startEmulator()
    open.push(emu)
    const storage = memoryStorage()
    const first = await page(emu.url, storage, 60_000)
    const [c] = (await first.client.support.conversations.list({ limit: 1 })).data
    emu.faults.failNext(1, { service: 'support', status: 503 })
    const call = first.client.support.conversations.reply(c!.id, { text: 'dots', files: [png(UPLOADS.chunkBytes)] })
    call.catch(() => undefined)
    await waitUntil(() => uploads(first.client).getSnapshot().messages[0]?.status === 'failed', { what: 'failed' })
    const [entry] = first.outbox.getSnapshot().entries
    first.outbox.stop()
    const outside = `${emu.url}/support/v1/uploads/../conversations/upl_${'a'.repeat(24)}`
    await storage.set(`agent:1:uploads#${encodeURIComponent(entry!.idempotencyKey)}`, { v: 1, urls: [outside] })

    const second = await page(emu.url, storage, 20)
    await waitUntil(() => second.outbox.getSnapshot().entries.length === 0, { what: 'applied' })
    expect(emu.log.filter((l) => l.path.includes('/conversations/upl_'))).toEqual([])
    second.outbox.stop()
  })

  it('a refused token: a fresh one, once, in the Authorization header; the upload goes on', async () => {
    const { emu } = await setup()
    let stale = false
    const tokens: string[] = []
    const { client } = createClientOfStyle({
      baseUrl: emu.url,
      auth: {
        fetchToken: async () => {
          const token = stale ? 'stale.token.value' : await emu.mintToken({ subject: 'agent_1', scope: ['support'] })
          stale = false
          tokens.push(token)
          return { token, expiresIn: 600 }
        },
      },
    })
    const [c] = (await client.support.conversations.list({ limit: 1 })).data
    stale = true
    client.auth.invalidate()
    const thread = await client.support.conversations.reply(c!.id, { text: 'after 401', files: [png(2000)] })
    expect(thread.attachments).toHaveLength(1)
    expect(tokens).toHaveLength(3) // the first, the stale one the upload met, the fresh one after its 401
    const uploadsLog = emu.log.filter((l) => l.path.startsWith('/support/v1/uploads'))
    expect(uploadsLog.map((l) => `${l.method} ${l.status}`)).toEqual(['POST 401', 'POST 201', 'PATCH 204'])
    expect(uploadsLog.every((l) => !l.path.includes('token'))).toBe(true)
  })
})
