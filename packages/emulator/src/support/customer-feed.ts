// What the service says on a customer's channel (`support:customer:<id>`, CUSTOMER_EVENTS): the
// service alone publishes there (docs/protocol.md). Nothing is said about an internal note.
import { CUSTOMER_EVENTS, customerChannelName, type CustomerTyping } from '@tandem/contract'
import type { PushNotifier, ServiceChannels } from '../service-module.js'
import type { UploadRegistry } from '../uploads/registry.js'
import type { ConversationStore } from './conversation-store.js'
import { toCustomerMessage, type CustomerReads } from './customer-view.js'
import type { Thread } from './types.js'

export interface CustomerFeed {
  /** The conversation's new state (created, status, read): every tab's badge agrees on it. */
  conversation(app: string, conversationId: string): void
  /** A new message the customer may see (and Web Push, whoever it reaches); a note is ignored. */
  message(app: string, thread: Thread): void
  typing(app: string, data: CustomerTyping): void
}

export function createCustomerFeed(
  store: ConversationStore,
  reads: CustomerReads,
  realtime: ServiceChannels | undefined,
  push?: PushNotifier,
  uploads?: Pick<UploadRegistry, 'fresh'>,
): CustomerFeed {
  /** The customer channel of the conversation's customer; undefined when it has none. */
  const channelOf = (conversationId: string): string | undefined => {
    const id = store.get(conversationId)?.customer.id
    return id === undefined || id === null ? undefined : customerChannelName(id)
  }
  const say = (app: string, conversationId: string, event: string, data: unknown) => {
    const channel = channelOf(conversationId)
    if (channel && realtime) realtime.publish(app, channel, event, data)
  }
  return {
    conversation(app, conversationId) {
      const conversation = store.get(conversationId)
      const threads = store.threads(conversationId)
      const modifiedAt = store.customerModifiedAt(conversationId)
      if (conversation && threads && modifiedAt)
        say(app, conversationId, CUSTOMER_EVENTS.conversation, reads.view(conversation, threads, modifiedAt))
    },
    message(app, thread) {
      if (thread.type === 'note') return
      // Links minted for this frame, under the emulator's own URL (never a request's Host).
      const message = toCustomerMessage(uploads ? uploads.fresh(thread) : thread)
      say(app, thread.conversationId, CUSTOMER_EVENTS.message, message)
      // After the channel: the rule asks who has a tab open, and an open one just heard it.
      const conversation = store.get(thread.conversationId)
      if (conversation) push?.message(app, conversation, thread)
    },
    typing(app, data) {
      say(app, data.conversationId, CUSTOMER_EVENTS.typing, data)
    },
  }
}
