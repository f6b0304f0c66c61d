// The customer's typing (`messenger(client).conversations.typing(id, on)`): at most one
// `setMyTyping` per conversation per CUSTOMER_TYPING_RENEW_MS (changes included), the last state at
// the window's end, never stored by a durable outbox, never a throw (errors go to `on('error')`).
import { CUSTOMER_TYPING_RENEW_MS } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { during, waitUntil } from '../../../../../test/utils/wait.js'
import { messenger } from '../../entries/messenger.js'
import { durableOutbox, memoryStorage } from '../../entries/persist.js'
import type { TandemError } from '../../index.js'
import { createClientOfStyle } from '../client-style.js'
import { setup } from '../helpers.js'

async function customerDesk(withOutbox = false) {
  const { emu } = await setup()
  const sent: { path: string; body: unknown; status?: number }[] = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input)
    const entry = { path: new URL(url).pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined }
    const response = await globalThis.fetch(input, init)
    if (entry.path.endsWith('/typing')) sent.push({ ...entry, status: response.status })
    return response
  }
  const outbox = withOutbox ? durableOutbox({ key: 'customer:alice', storage: memoryStorage() }) : undefined
  const { client } = createClientOfStyle({
    baseUrl: emu.url,
    auth: {
      fetchToken: async () => ({
        token: await emu.mintToken({ subject: 'cus_alice', scope: ['support:customer'] }),
        expiresIn: 600,
      }),
    },
    fetch,
    outbox,
  })
  const desk = messenger(client)
  const errors: TandemError[] = []
  desk.on('error', (e) => void errors.push(e))
  const conversation = await desk.conversations.start({ text: 'Hello' })
  return { emu, desk, sent, errors, outbox, id: conversation.id }
}

describe('conversations.typing(id, on)', () => {
  it('at most one per window: flapping true/false sends the first, then the last state when the window ends', async () => {
    const { desk, sent, errors, id } = await customerDesk()
    for (let i = 0; i < 20; i++) {
      desk.conversations.typing(id, true)
      desk.conversations.typing(id, false)
    }
    await waitUntil(() => sent.length === 2, { what: 'the first and, at the window’s end, the stop' })
    await during(CUSTOMER_TYPING_RENEW_MS + 100) // another window: nothing more to say
    expect(sent.map((s) => s.body)).toEqual([{ typing: true }, { typing: false }])
    expect(sent.every((s) => s.path === `/support/v1/me/conversations/${id}/typing`)).toBe(true)
    expect(sent.map((s) => s.status)).toEqual([204, 204])
    expect(errors).toEqual([])
  })

  it('true renewed by the first call after its window; a stop within a window is sent at its end', async () => {
    const { desk, sent, errors, id } = await customerDesk()
    desk.conversations.typing(id, true)
    desk.conversations.typing(id, true)
    await waitUntil(() => sent.length === 1, { what: 'the first typing' })
    await during(CUSTOMER_TYPING_RENEW_MS + 100)
    desk.conversations.typing(id, true)
    desk.conversations.typing(id, false)
    await waitUntil(() => sent.length === 3, { what: 'the renewal and, at the window’s end, the stop' })
    expect(sent.map((s) => s.body)).toEqual([{ typing: true }, { typing: true }, { typing: false }])
    expect(errors).toEqual([])
  })

  it('never throws: a bad id is reported; with a durable outbox nothing is stored', async () => {
    const { desk, sent, errors, outbox, id } = await customerDesk(true)
    let queued = 0
    outbox!.on('queued', () => void queued++)
    expect(() => desk.conversations.typing('..', true)).not.toThrow()
    expect(errors).toMatchObject([{ name: 'ValidationError' }])
    desk.conversations.typing(id, true)
    await waitUntil(() => sent.length === 1, { what: 'typing sent' })
    expect(queued).toBe(0)
    expect(outbox!.getSnapshot().entries).toEqual([])
    outbox!.stop()
  })
})
