// What a push carries: the one derivation of a message's payload (the service's, the emulator's,
// and a hidden tab's own notification through @tandem/core/push), and the one shape check a
// service worker runs before it shows anything. push.ts has the rules; this is apart so the spec,
// which push.ts feeds, never needs the generated lines.
import { PUSH_PAYLOAD_FIELDS } from './generated/answer-fields.js'
import type { components } from './generated/openapi.js'
import { hasFields } from './has-fields.js'
import { PUSH, PUSH_PAYLOAD_VERSION, PUSH_URL_CONVERSATION } from './push.js'

/** What a push carries, decrypted (the OpenAPI schema `PushPayload`). */
export type PushPayload = components['schemas']['PushPayload']

/** What `pushPayloadOf` derives a payload from: one message, and who hears it. */
export interface PushPayloadInput {
  /** The channel of whom it is for (`support:customer:<id>`, or the agents'). */
  channel: string
  messageId: string
  conversationId: string
  /** Who wrote, as the receiver should read it. */
  title: string
  /** The message's text, whole: it is shortened here. */
  text: string
  /** What a click opens (may hold `{conversationId}`), or null (the worker's own scope). */
  url: string | null
  sentAt: string
}

/**
 * Whether `value` is a push payload of the contract's (PushPayload, version 1): what a service
 * worker checks before it shows anything. The one shape check, with the generated line.
 */
export const isPushPayload = (value: unknown): value is PushPayload =>
  hasFields(value, PUSH_PAYLOAD_FIELDS) && (value as { v: unknown }).v === PUSH_PAYLOAD_VERSION

/** The payload's JSON in UTF-8 bytes: what `PUSH.payloadBytes` limits (TextEncoder: browsers and Node alike). */
export const pushPayloadBytes = (payload: PushPayload): number =>
  new TextEncoder().encode(JSON.stringify(payload)).length

/** `text` with its white space folded, in at most `max` characters (code points), ending in `…` when cut. */
const shorten = (text: string, max: number): string => {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim())
  return chars.length <= max ? chars.join('') : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`
}

/**
 * A message's push payload: the title and the body shortened to `PUSH.titleChars` and
 * `PUSH.bodyChars`, the url's `{conversationId}` replaced, and the JSON within `PUSH.payloadBytes`
 * (the body gives way first, then the url).
 */
export function pushPayloadOf(input: PushPayloadInput): PushPayload {
  const { conversationId, url } = input
  const payload: PushPayload = {
    v: PUSH_PAYLOAD_VERSION,
    type: 'message',
    channel: input.channel,
    messageId: input.messageId,
    conversationId,
    title: shorten(input.title, PUSH.titleChars) || 'Tandem',
    body: shorten(input.text, PUSH.bodyChars),
    url: url === null ? null : url.replaceAll(PUSH_URL_CONVERSATION, encodeURIComponent(conversationId)),
    sentAt: input.sentAt,
  }
  // Multi-byte text can pass the byte budget in fewer characters: cut the body until it fits.
  let chars = Array.from(payload.body).length
  while (pushPayloadBytes(payload) > PUSH.payloadBytes && chars > 1) {
    chars = Math.max(1, Math.floor(chars * 0.9))
    payload.body = shorten(payload.body, chars)
  }
  if (pushPayloadBytes(payload) > PUSH.payloadBytes) payload.url = null
  return payload
}
