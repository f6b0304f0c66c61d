// A hidden tab's own notification of an agent's reply: the service pushes nothing while a tab is
// open, so the element hands each agent's reply that reaches a hidden tab to the page's push
// controller (`showIfHidden`, which @tandem/core/push honours with `hiddenTab: true` only), as the
// contract's push payload. Real messenger, realtime and emulator; the controller is a small one of
// the interface's shape (core's own tests cover showing the notification).
import { customerChannelName, isPushPayload, pushPayloadOf, type PushPayload } from '@tandem/contract'
import { createClient, type TandemClient } from '@tandem/core'
import { messenger, type CustomerMessage } from '@tandem/core/messenger'
import { startEmulator } from '@tandem/emulator'
import { createRealtime } from '@tandem/realtime'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { during, poll, slack } from '../../../../test/utils/wait.js'
import type { MessengerPush } from '../panel-types.js'
import { mount } from './helpers.js'

const open: (() => unknown)[] = []
let visibility: DocumentVisibilityState = 'visible'
// happy-dom's document is always visible: this file's tests say when it is hidden (isolation is
// off, so the page's own getter is back for the files after this one).
beforeAll(() => Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility }))
afterAll(() => Reflect.deleteProperty(document, 'visibilityState'))

afterEach(async () => {
  visibility = 'visible'
  for (const close of open.splice(0).reverse()) await close()
})

/** A controller of the interface's shape whose showIfHidden records the payload it would show (the contract's derivation, as @tandem/core/push's). */
function recordingPush() {
  const shown: PushPayload[] = []
  const push: MessengerPush = {
    getSnapshot: () => ({ status: 'subscribed', reason: null }),
    subscribe: () => () => {},
    enable: async () => {},
    disable: async () => {},
    showIfHidden: async (message) => (shown.push(pushPayloadOf(message)), true),
  }
  return { push, shown }
}

/** A customer's live messenger on a new emulator, in one conversation an agent answers. */
async function live(subject: string) {
  const emu = await startEmulator({ host: '127.0.0.1', port: 0 })
  open.push(() => emu.close())
  const clientOf = (sub: string, scope: string[]): TandemClient =>
    createClient({
      baseUrl: emu.url,
      auth: { fetchToken: async () => ({ token: await emu.mintToken({ subject: sub, scope }), expiresIn: 600 }) },
      retry: false,
    })
  const client = clientOf(subject, ['support:customer'])
  const rt = createRealtime({ client })
  open.push(() => rt.close())
  const desk = messenger(client, { realtime: rt })
  open.push(() => desk.shutdown())
  const heard: CustomerMessage[] = []
  open.push(desk.on('message', (m) => void heard.push(m)))
  await poll(() => rt.channel(customerChannelName(subject)).state === 'subscribed', 'the customer channel')
  const conversation = await desk.conversations.start({ text: 'Where is my parcel?' })
  const agent = clientOf('agent_1', ['support', 'realtime'])
  /** An agent's reply, once the customer's channel brought it. */
  const reply = async (text: string) => {
    const thread = await agent.support.conversations.reply(conversation.id, { text })
    await poll(() => heard.some((m) => m.id === thread.id), `the reply "${text}" on the channel`)
    return thread
  }
  return { desk, heard, conversation, reply }
}

describe('<tandem-messenger> in a hidden tab', () => {
  it('hands an agent’s reply to showIfHidden once, as the contract’s push payload; none while visible', async () => {
    const subject = 'cus_hidden_reply'
    const { desk, reply } = await live(subject)
    const el = mount(desk)
    const { push, shown } = recordingPush()
    el.push = push

    await reply('Seen while you look')
    visibility = 'hidden'
    const thread = await reply('Your parcel left today')
    await poll(() => shown.length > 0, 'showIfHidden')
    await during(slack(50))
    expect(shown).toHaveLength(1)
    const [payload] = shown
    expect(isPushPayload(payload)).toBe(true)
    expect(payload).toMatchObject({
      messageId: thread.id,
      conversationId: thread.conversationId,
      channel: customerChannelName(subject),
      title: thread.author.name ?? 'Support',
      body: 'Your parcel left today',
      url: null,
    })
  })

  it('never for the customer’s own message', async () => {
    const { desk, heard, conversation, reply } = await live('cus_hidden_own')
    const el = mount(desk)
    const { push, shown } = recordingPush()
    el.push = push
    visibility = 'hidden'

    const own = await desk.conversations.reply(conversation.id, { text: 'Any news?' })
    await poll(() => heard.some((m) => m.id === own.id), 'the customer’s own message on the channel')
    const thread = await reply('Yes: tomorrow')
    await poll(() => shown.length > 0, 'showIfHidden')
    await during(slack(50))
    expect(shown.map((p) => p.messageId)).toEqual([thread.id])
  })

  it('lets go on shutdown, on removal and when the push is replaced', async () => {
    const { desk, reply } = await live('cus_hidden_off')
    const el = mount(desk)
    const first = recordingPush()
    el.push = first.push
    visibility = 'hidden'
    await reply('One')
    await poll(() => first.shown.length === 1, 'the first controller')

    // Replaced: the new controller hears the next reply, the old one nothing more.
    const second = recordingPush()
    el.push = second.push
    await reply('Two')
    await poll(() => second.shown.length === 1, 'the second controller')

    // Removed from the page: nothing; back on it: heard again.
    el.remove()
    await reply('Three')
    await during(slack(50))
    expect(second.shown).toHaveLength(1)
    document.body.append(el)
    await reply('Four')
    await poll(() => second.shown.length === 2, 'after coming back')

    // A logout while a reply is on its way to showIfHidden: it shows nothing.
    open.push(desk.on('message', (m) => m.text === 'Five' && el.shutdown()))
    await reply('Five')
    await during(slack(50))
    expect(first.shown.map((p) => p.body)).toEqual(['One'])
    expect(second.shown.map((p) => p.body)).toEqual(['Two', 'Four'])
  })
})
