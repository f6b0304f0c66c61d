// What one push of the emulator carries: the contract's derivation (pushPayloadOf, the one the
// browser's hidden-tab notification uses too), read from a support thread.
import { pushPayloadBytes, pushPayloadOf, type PushPayload, type Thread } from '@tandem/contract'

export interface PayloadInput {
  channel: string
  thread: Thread
  /** Who wrote, as the receiver should read it. */
  title: string
  /** The subscription's click url (may hold `{conversationId}`), or null. */
  url: string | null
}

export const payloadBytes: (payload: PushPayload) => number = pushPayloadBytes

export const buildPayload = ({ channel, thread, title, url }: PayloadInput): PushPayload =>
  pushPayloadOf({
    channel,
    messageId: thread.id,
    conversationId: thread.conversationId,
    title,
    text: thread.text,
    url,
    sentAt: thread.createdAt,
  })
