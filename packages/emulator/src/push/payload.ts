// What one push carries (the contract's PushPayload): the service derives the title and the body,
// and keeps the JSON within PUSH.payloadBytes, shortening the body (then dropping the url) to fit.
import { PUSH, PUSH_PAYLOAD_VERSION, PUSH_URL_CONVERSATION, type PushPayload, type Thread } from '@tandem/contract'

export interface PayloadInput {
  channel: string
  thread: Thread
  /** Who wrote, as the receiver should read it. */
  title: string
  /** The subscription's click url (may hold `{conversationId}`), or null. */
  url: string | null
}

const ELLIPSIS = '…'

/** `text` in at most `max` characters (code points), ending in `…` when cut. */
export function shorten(text: string, max: number): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim())
  return chars.length <= max ? chars.join('') : `${chars.slice(0, Math.max(0, max - 1)).join('')}${ELLIPSIS}`
}

export const payloadBytes = (payload: PushPayload): number => Buffer.byteLength(JSON.stringify(payload))

export function buildPayload({ channel, thread, title, url }: PayloadInput): PushPayload {
  const payload: PushPayload = {
    v: PUSH_PAYLOAD_VERSION,
    type: 'message',
    channel,
    messageId: thread.id,
    conversationId: thread.conversationId,
    title: shorten(title, PUSH.titleChars) || 'Tandem',
    body: shorten(thread.text, PUSH.bodyChars),
    url: url === null ? null : url.replaceAll(PUSH_URL_CONVERSATION, encodeURIComponent(thread.conversationId)),
    sentAt: thread.createdAt,
  }
  // Multi-byte text can pass the byte budget in fewer characters: cut the body until it fits.
  let chars = Array.from(payload.body).length
  while (payloadBytes(payload) > PUSH.payloadBytes && chars > 1) {
    chars = Math.max(1, Math.floor(chars * 0.9))
    payload.body = shorten(payload.body, chars)
  }
  if (payloadBytes(payload) > PUSH.payloadBytes) payload.url = null
  return payload
}
