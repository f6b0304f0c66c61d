// The support service's resources: the contract's types (@tandem/contract), and the seed's shape.

import {
  CONVERSATION_STATUSES,
  type Agent,
  type Article,
  type Conversation,
  type ConversationStatus,
  type DocCollection,
  type Mailbox,
  type Thread,
} from '@tandem/contract'

export type {
  Agent,
  Attachment,
  Article,
  ArticleSummary,
  Conversation,
  ConversationStatus,
  Customer,
  DocCollection,
  Mailbox,
  Thread,
  ThreadAuthor,
  ThreadType,
} from '@tandem/contract'

export const STATUSES: readonly ConversationStatus[] = CONVERSATION_STATUSES

export interface SupportData {
  mailboxes: Mailbox[]
  agents: Agent[]
  tags: string[]
  conversations: { conversation: Conversation; threads: Thread[] }[]
  collections: DocCollection[]
  articles: Article[]
}
