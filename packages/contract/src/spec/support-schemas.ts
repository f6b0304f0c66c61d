// The support service's shapes (docs/services/support.md). Limits come from wire.ts.
import { CUSTOMER_ID } from '../customer.js'
import { CONVERSATION_STATUSES, LIMITS } from '../wire.js'
import { Attachment, attachmentIds, withTextOrFiles } from './attachment-schemas.js'
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

const status = ref('ConversationStatus')
export const support: Record<string, Schema> = {
  ConversationStatus: string({ enum: [...CONVERSATION_STATUSES] }),
  Mailbox: object({
    id: string({ pattern: '^mbx_' }),
    name: string(),
    slug: string(),
    email: email(),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  MailboxPage: page('Mailbox', 'Mailboxes.'),
  Agent: object({ id: string({ pattern: '^agt_' }), name: string(), email: email() }),
  AgentPage: page('Agent', 'Agents.'),
  Customer: object({
    id: nullable(
      string({
        pattern: CUSTOMER_ID.source,
        description: 'The customer id (a customer token’s subject); null if unknown.',
      }),
    ),
    email: nullable(email()),
    name: nullable(string()),
  }),
  Conversation: object({
    id: string({ pattern: '^cnv_' }),
    number: integer({ minimum: 1 }),
    mailboxId: string(),
    subject: string(),
    preview: string({ description: 'The start of the latest customer message or reply.' }),
    status,
    customer: ref('Customer'),
    assigneeId: nullable(string()),
    tags: array(string()),
    threadCount: integer({ minimum: 0 }),
    createdAt: dateTime,
    modifiedAt: dateTime,
    closedAt: nullable(dateTime),
    customerRead: nullable(
      object(
        {
          threadId: string({ pattern: '^thr_', description: 'The latest message when the customer marked it read.' }),
          at: dateTime,
        },
        [],
        {
          description:
            'Where the customer has read up to (`markMyConversationRead`); null until they do. Changing it ' +
            'changes neither `modifiedAt` nor the list order.',
        },
      ),
    ),
  }),
  ConversationPage: page('Conversation', 'Conversations, most recently modified first.'),
  ConversationCreate: object(
    {
      mailboxId: text(LIMITS.id),
      subject: text(LIMITS.subject),
      customer: object(
        {
          id: string({ pattern: CUSTOMER_ID.source, description: 'Whose conversation it is (their token’s subject).' }),
          email: email(),
          name: text(LIMITS.personName),
        },
        ['id', 'name'],
      ),
      text: text(LIMITS.text),
      tags: array(text(LIMITS.tag), { maxItems: LIMITS.tags }),
      status,
      assigneeId: nullable(string({ maxLength: LIMITS.id, description: 'An agent id (GET /v1/agents).' })),
    },
    ['tags', 'status', 'assigneeId'],
  ),
  ConversationUpdate: object(
    {
      status,
      assigneeId: nullable(string({ maxLength: LIMITS.id, description: 'An agent id; null unassigns.' })),
      tags: array(text(LIMITS.tag), { maxItems: LIMITS.tags }),
    },
    ['status', 'assigneeId', 'tags'],
  ),
  Attachment,
  ThreadType: string({ enum: ['customer', 'reply', 'note'] }),
  Thread: object({
    id: string({ pattern: '^thr_' }),
    conversationId: string(),
    type: ref('ThreadType'),
    author: object({
      type: string({ enum: ['customer', 'agent'] }),
      id: nullable(string()),
      name: nullable(string()),
      email: nullable(email()),
    }),
    text: string({ description: 'May be empty when the thread carries files.' }),
    attachments: array(ref('Attachment'), { description: 'Its files, in the order they were attached.' }),
    createdAt: dateTime,
  }),
  ThreadPage: page('Thread', 'Threads, oldest first.'),
  ReplyCreate: withTextOrFiles({ status, attachments: attachmentIds }, ['status', 'attachments']),
  NoteCreate: withTextOrFiles({ attachments: attachmentIds }, ['attachments']),
  DocCollection: object({
    id: string({ pattern: '^col_' }),
    name: string(),
    slug: string(),
    description: string(),
    articleCount: integer({ minimum: 0 }),
  }),
  DocCollectionPage: page('DocCollection', 'Help-centre collections.'),
  Article: object({
    id: string({ pattern: '^art_' }),
    collectionId: string(),
    title: string(),
    slug: string(),
    published: boolean,
    keywords: array(string()),
    text: string(),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  ArticleSummary: object({
    id: string({ pattern: '^art_' }),
    collectionId: string(),
    title: string(),
    slug: string(),
    published: boolean,
    keywords: array(string()),
    excerpt: string(),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  ArticleSummaryPage: page('ArticleSummary', 'Articles by title, or by relevance with `query`.'),
}
