// A note changes nothing a customer sees (issue 43, row 6). Its text never reached a customer; its
// existence and time did: the customer-visible `modifiedAt` jumped from the seed's 2024 to now and
// the conversation moved to the top of the customer's list. Now each conversation keeps the time of
// its last change the customer can see, and the customer's view, order and channel follow it.
// Real HTTP and WebSocket on 127.0.0.1: the customer reads raw bytes and listens through the SDK.
import { customerChannelName, type CustomerConversation } from '@tandem/contract'
import { createClient } from '@tandem/core'
import { startEmulator } from '@tandem/emulator'
import type { Message } from '@tandem/realtime'
import { afterEach, describe, expect, it } from 'vitest'
import { realtimeClient, untilSubscribed } from '../utils/harness.js'
import { printSeedOnFailure, replay, seedFrom } from '../utils/seed.js'
import { waitUntil } from '../utils/wait.js'

const FILE = 'note-leaks'
const SEED = seedFrom(0x4073)
const at = replay(SEED, FILE)

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

describe('a note changes nothing a customer sees', () => {
  it("the customer's list is byte-identical after a note, in the same order, and its channel hears nothing", async () => {
    printSeedOnFailure(SEED, FILE)
    const emu = await startEmulator({ seed: SEED })
    cleanups.push(() => emu.close())
    // cus_12 is the customer of seeded conversation 12 (last modified in 2024); it starts a second one now.
    const customerId = 'cus_12'
    const customerToken = await emu.mintToken({ subject: customerId, scope: ['support:customer'] })
    const raw = async (path: string) => {
      const res = await fetch(`${emu.url}/support/v1${path}`, { headers: { authorization: `Bearer ${customerToken}` } })
      expect(res.status, `${path}; ${at}`).toBe(200)
      return res.text()
    }
    const agent = createClient({
      baseUrl: emu.url,
      auth: { fetchToken: async () => ({ token: await emu.mintToken({ subject: 'agt_notes' }), expiresIn: 600 }) },
    })
    const started = JSON.parse(
      await (
        await fetch(`${emu.url}/support/v1/me/conversations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${customerToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'Where is my parcel?' }),
        })
      ).text(),
    ) as CustomerConversation

    const listBefore = await raw('/me/conversations')
    const ids = (text: string) => (JSON.parse(text) as { data: CustomerConversation[] }).data.map((c) => c.id)
    const [first, seededId] = ids(listBefore)
    expect(first, `the new conversation leads; ${at}`).toBe(started.id)
    if (!seededId) throw new Error(`cus_12 has no seeded conversation; ${at}`)
    const itemBefore = await raw(`/me/conversations/${seededId}`)
    const meBefore = await raw('/me')

    // The customer listens on its channel, through the SDK.
    const rt = realtimeClient(emu, { url: emu.url, subject: customerId, scope: ['support:customer'] })
    cleanups.push(() => rt.close())
    const heard: Message[] = []
    const channel = rt.channel(customerChannelName(customerId))
    channel.subscribe((m) => void heard.push(m))
    await untilSubscribed([channel])

    const agentBefore = await agent.support.conversations.get(seededId)
    const note = await agent.support.conversations.note(seededId, { text: 'Refund approved; do not tell them yet.' })
    expect(note.type).toBe('note')

    const listAfter = await raw('/me/conversations')
    const itemAfter = await raw(`/me/conversations/${seededId}`)
    const modified = (text: string) => (JSON.parse(text) as CustomerConversation).modifiedAt
    expect(modified(itemAfter), `modifiedAt before → after the note; ${at}`).toBe(modified(itemBefore))
    expect(ids(listAfter), `the customer's order; ${at}`).toEqual(ids(listBefore))
    expect(listAfter, `the customer's list, byte for byte; ${at}`).toBe(listBefore)
    expect(itemAfter).toBe(itemBefore)
    expect(await raw('/me')).toBe(meBefore)
    // Agents still see the conversation's own time move.
    expect((await agent.support.conversations.get(seededId)).modifiedAt).not.toBe(agentBefore.modifiedAt)

    // A reply the customer does see is the first thing its channel hears: nothing came of the note.
    await agent.support.conversations.reply(started.id, { text: 'It left the depot this morning.' })
    await waitUntil(() => heard.some((m) => m.event === 'conversation'), {
      timeoutMs: 10_000,
      what: `the reply's conversation event; ${at}`,
    })
    const about = heard.map(
      (m) =>
        `${m.event}:${(m.data as { conversationId?: string; id?: string }).conversationId ?? (m.data as { id?: string }).id}`,
    )
    expect(about, `events on the customer's channel; ${at}`).toEqual([
      `message:${started.id}`,
      `conversation:${started.id}`,
    ])
  })
})
