// The customer's view of support (docs/services/support.md, "Customers"): what a token with the
// `support:customer` scope reads and writes under /support/v1/me, and what its channel carries.
// No agent-only field (mailbox, assignee, tags, internal notes) is in any of them.
import { CUSTOMER_ID } from '../customer.js'
import { LOCK_TTL_MAX, LOCK_TTL_MIN, MAX_PRESENCE_RESOURCES, PRESENCE_NAME } from '../resource-presence.js'
import { LIMITS } from '../wire.js'
import { attachmentIds, withTextOrFiles } from './attachment-schemas.js'
import {
  array,
  boolean,
  dateTime,
  email,
  integer,
  nullable,
  object,
  page,
  ref,
  string,
  text,
  type Schema,
} from './helpers.js'

const conversationId = string({ pattern: '^cnv_' })

/** REST (openapi.json) and the customer channel's messages (asyncapi.json). */
export const customer: Record<string, Schema> = {
  CustomerConversation: object({
    id: conversationId,
    subject: string(),
    status: ref('ConversationStatus'),
    preview: string({ description: 'The start of the latest message, the customer’s or an agent’s.' }),
    messageCount: integer({ minimum: 0 }),
    unreadCount: integer({ minimum: 0, description: 'Agent messages since the customer last marked it read.' }),
    createdAt: dateTime,
    modifiedAt: {
      ...dateTime,
      description:
        'The last change the customer can see: its start, a message, a reply, a status change (never an internal note, a tag or an assignee).',
    },
    closedAt: nullable(dateTime),
  }),
  CustomerConversationPage: page('CustomerConversation', 'The customer’s conversations, most recently modified first.'),
  CustomerMessage: object({
    id: string({ pattern: '^thr_' }),
    conversationId,
    author: object({ type: string({ enum: ['customer', 'agent'] }), name: nullable(string()) }),
    text: string({ description: 'May be empty when the message carries files.' }),
    attachments: array(ref('Attachment'), { description: 'Its files, in the order they were attached.' }),
    createdAt: dateTime,
  }),
  CustomerMessagePage: page('CustomerMessage', 'Messages, oldest first. Internal notes are never among them.'),
  CustomerConversationStart: withTextOrFiles(
    {
      subject: text(LIMITS.subject, {
        description: 'The start of the text when absent (the first file’s name when the text is empty).',
      }),
      attachments: attachmentIds,
    },
    ['subject', 'attachments'],
  ),
  CustomerMessageCreate: withTextOrFiles({ attachments: attachmentIds }, ['attachments']),
  CustomerTypingCreate: object({ typing: boolean }, [], {
    description: '`true` while the customer types (say it again within the TTL to keep it), `false` when they stop.',
  }),
  CustomerProfile: object({
    id: string({ pattern: CUSTOMER_ID.source }),
    name: nullable(string()),
    email: nullable(email()),
    unreadCount: integer({ minimum: 0, description: 'Unread agent messages across all the customer’s conversations.' }),
  }),
}

/** The socket only (asyncapi.json). */
export const customerSocket: Record<string, Schema> = {
  CustomerTyping: object({
    conversationId,
    typing: boolean,
    name: nullable(string({ description: 'The agent’s name.' })),
  }),
  ResourcePresenceData: object(
    {
      name: nullable(
        string({
          maxLength: LIMITS.personName,
          pattern: PRESENCE_NAME.source,
          description:
            'How other agents see this member. What a client sends is a hint: the service relays the agent’s ' +
            'verified name (its token’s `profile.name`, else the service’s agent record, else null).',
        }),
      ),
      viewing: array(string({ maxLength: LIMITS.id }), { maxItems: MAX_PRESENCE_RESOURCES, uniqueItems: true }),
      typing: array(string({ maxLength: LIMITS.id }), { maxItems: MAX_PRESENCE_RESOURCES, uniqueItems: true }),
      locks: array(
        object({
          id: string({ maxLength: LIMITS.id }),
          acquiredAt: integer({
            minimum: 0,
            maximum: Number.MAX_SAFE_INTEGER,
            description:
              'Epoch ms, stamped by the service when the claim is new (what a client sends is replaced), unique ' +
              'per channel: the earliest claim not yet lapsed holds the lock. A renewal sends back the value it ' +
              'first sent or the stamp, and keeps the stamp.',
          }),
          ttlMs: integer({
            minimum: LOCK_TTL_MIN,
            maximum: LOCK_TTL_MAX,
            description: 'The lock lapses this long after acquiredAt.',
          }),
        }),
        { maxItems: MAX_PRESENCE_RESOURCES, description: 'At most one lock per id.' },
      ),
    },
    ['name'],
    { description: "A member's data on a resource presence channel (`support:conversations:presence`)." },
  ),
}
