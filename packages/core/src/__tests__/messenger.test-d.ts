import { describe, expectTypeOf, it } from 'vitest'
import {
  messenger,
  type ArticleSummary,
  type CustomerConversation,
  type CustomerMessage,
  type CustomerProfile,
  type CustomerTyping,
  type HelpSearchSnapshot,
  type Messenger,
  type ThreadSnapshot,
  type UnreadSnapshot,
} from '../entries/messenger.js'
import type { Client, PagePromise, TandemError, Unsubscribe } from '../entries/client.js'
import type { TandemClient } from '../index.js'

// Nothing here runs: the calls are made only for their types.
declare const client: Client
declare const full: TandemClient

describe('messenger(client)', () => {
  it('takes either client style and types every call by the contract', async () => {
    expectTypeOf(messenger(client)).toEqualTypeOf<Messenger>()
    const desk = messenger(full, {})
    expectTypeOf(await desk.me()).toEqualTypeOf<CustomerProfile>()
    expectTypeOf(desk.conversations.list()).toEqualTypeOf<PagePromise<CustomerConversation>>()
    expectTypeOf(desk.conversations.messages('cnv_1')).toEqualTypeOf<PagePromise<CustomerMessage>>()
    expectTypeOf(await desk.conversations.start({ text: 'hi' })).toEqualTypeOf<CustomerConversation>()
    expectTypeOf(await desk.conversations.reply('cnv_1', { text: 'hi' })).toEqualTypeOf<CustomerMessage>()
    expectTypeOf(await desk.conversations.markRead('cnv_1')).toEqualTypeOf<CustomerConversation>()
    expectTypeOf(desk.docs.search({ query: 'export' })).toEqualTypeOf<PagePromise<ArticleSummary>>()
    // @ts-expect-error: a search needs its query
    void desk.docs.search({ limit: 5 })
    // @ts-expect-error: a new conversation needs its text
    void desk.conversations.start({ subject: 'Export' })
  })

  it('on() pairs each event with its payload', () => {
    const desk = messenger(client)
    expectTypeOf(
      desk.on('message', (m) => expectTypeOf(m).toEqualTypeOf<CustomerMessage>()),
    ).toEqualTypeOf<Unsubscribe>()
    desk.on('conversation', (c) => expectTypeOf(c).toEqualTypeOf<CustomerConversation>())
    desk.on('typing', (t) => expectTypeOf(t).toEqualTypeOf<CustomerTyping>())
    desk.on('error', (e) => expectTypeOf(e).toEqualTypeOf<TandemError>())
    // @ts-expect-error: not an event of the customer channel
    desk.on('presence', () => {})
  })

  it('the stores’ snapshots', () => {
    const desk = messenger(client)
    expectTypeOf(desk.unread.getSnapshot()).toEqualTypeOf<UnreadSnapshot>()
    expectTypeOf(desk.unread.getSnapshot().byConversation).toEqualTypeOf<ReadonlyMap<string, number>>()
    expectTypeOf(desk.thread('cnv_1').getSnapshot()).toEqualTypeOf<ThreadSnapshot>()
    expectTypeOf(desk.conversationList().refresh).toEqualTypeOf<() => Promise<void>>()
    expectTypeOf(desk.helpSearch().getSnapshot()).toEqualTypeOf<HelpSearchSnapshot>()
    expectTypeOf(desk.thread('cnv_1').getSnapshot().messages).toEqualTypeOf<readonly CustomerMessage[]>()
  })
})
