// What a service worker checks a push against before it shows anything (push.ts has the rules;
// this is apart so the spec, which push.ts feeds, never needs the generated lines).
import { PUSH_PAYLOAD_FIELDS } from './generated/answer-fields.js'
import type { components } from './generated/openapi.js'
import { hasFields } from './has-fields.js'
import { PUSH_PAYLOAD_VERSION } from './push.js'

/** What a push carries, decrypted (the OpenAPI schema `PushPayload`). */
export type PushPayload = components['schemas']['PushPayload']

/**
 * Whether `value` is a push payload of the contract's (PushPayload, version 1): what a service
 * worker checks before it shows anything. The one shape check, with the generated line.
 */
export const isPushPayload = (value: unknown): value is PushPayload =>
  hasFields(value, PUSH_PAYLOAD_FIELDS) && (value as { v: unknown }).v === PUSH_PAYLOAD_VERSION
