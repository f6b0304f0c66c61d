// The support service's resources as the REST API returns them (docs/services/support.md).

export type ConversationStatus = 'active' | 'pending' | 'closed'
export const STATUSES: readonly ConversationStatus[] = ['active', 'pending', 'closed']

export interface Mailbox {
  id: string
  name: string
  slug: string
  email: string
  createdAt: string
  updatedAt: string
}

export interface Agent {
  id: string
  name: string
  email: string
}

export interface Customer {
  email: string
  name: string | null
}

export interface Conversation {
  id: string
  /** Human-friendly, sequential per emulator. */
  number: number
  mailboxId: string
  subject: string
  /** The start of the latest customer message or reply (notes are internal). */
  preview: string
  status: ConversationStatus
  customer: Customer
  assigneeId: string | null
  tags: string[]
  threadCount: number
  createdAt: string
  modifiedAt: string
  closedAt: string | null
}

export type ThreadType = 'customer' | 'reply' | 'note'

export interface ThreadAuthor {
  type: 'customer' | 'agent'
  /** The agent id, or the token subject of the caller; null for customers. */
  id: string | null
  name: string | null
  email: string | null
}

export interface Thread {
  id: string
  conversationId: string
  type: ThreadType
  author: ThreadAuthor
  text: string
  createdAt: string
}

export interface DocCollection {
  id: string
  name: string
  slug: string
  description: string
  articleCount: number
}

export interface Article {
  id: string
  collectionId: string
  title: string
  slug: string
  keywords: string[]
  text: string
  createdAt: string
  updatedAt: string
}

/** Lists and search answer articles without their text, with a short excerpt instead. */
export type ArticleSummary = Omit<Article, 'text'> & { excerpt: string }

export interface SupportData {
  mailboxes: Mailbox[]
  agents: Agent[]
  tags: string[]
  conversations: { conversation: Conversation; threads: Thread[] }[]
  collections: DocCollection[]
  articles: Article[]
}
