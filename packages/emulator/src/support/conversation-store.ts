// Conversations and their threads, in memory: the writes, each stamped with a store revision.
// Each conversation keeps two modification times: its own (agents see it) and the last change its
// customer can see, which an internal note, a tag or an assignee never moves. Lists are read from
// those stamps by conversation-list.ts.
import { visible } from './customer-view.js'
import { listConversations, type ConversationFilter, type Entry, type Viewer } from './conversation-list.js'
import type { Page } from './cursor.js'
import { createIds, newFaker, previewOf, seedSupport } from './seed.js'
import { checkTransition } from './transitions.js'
import type {
  Attachment,
  Conversation,
  ConversationStatus,
  Customer,
  SupportData,
  Thread,
  ThreadAuthor,
  ThreadType,
} from './types.js'

export type { ConversationFilter, Viewer } from './conversation-list.js'

export interface Change<T> {
  from: T
  to: T
}

export interface Changes {
  status?: Change<ConversationStatus>
  assigneeId?: Change<string | null>
  tags?: Change<string[]>
}

export interface CreateInput {
  mailboxId: string
  subject: string
  customer: Customer
  text: string
  tags: string[]
  status: ConversationStatus
  assigneeId: string | null
  /** The first message's files, given its thread id (claimed before: see uploads/registry.ts). */
  attach?: (threadId: string) => Attachment[]
}

/** Files for a new thread, from its id (the uploads are marked as that thread's). */
export type Attach = (threadId: string) => Attachment[]

export interface UpdateInput {
  status?: ConversationStatus
  assigneeId?: string | null
  tags?: string[]
}

interface Loaded {
  data: SupportData
  entries: Entry[]
  byId: Map<string, Entry>
  /** Bumped by every write; a list's first page pins the revision its cursors order by. */
  rev: number
  nextNumber: number
  newId: (prefix: string) => string
}

export class ConversationStore {
  private loaded: Loaded | undefined

  constructor(private readonly seed: number) {}

  /** Seeded on first use (tens of ms), so emulators that never call support never pay for it. */
  private get s(): Loaded {
    return (this.loaded ??= this.load())
  }

  /** Mailboxes, agents, tags and docs: read-only, so shared as seeded. */
  get data(): SupportData {
    return this.s.data
  }

  reset(): void {
    this.loaded = undefined
  }

  private load(): Loaded {
    const data = seedSupport(this.seed)
    const entries = data.conversations.map(({ conversation, threads }) => ({
      conversation,
      threads,
      history: [{ rev: 0, at: Date.parse(conversation.modifiedAt) }],
      customerHistory: [{ rev: 0, at: seenByCustomer(conversation, threads) }],
    }))
    return {
      data,
      entries,
      byId: new Map(entries.map((e) => [e.conversation.id, e])),
      rev: 0,
      nextNumber: entries.length + 1,
      // Ids of new writes are deterministic too (a faker seeded apart from the data's).
      newId: createIds(newFaker(this.seed + 0x5eed)),
    }
  }

  get(id: string): Conversation | undefined {
    return this.s.byId.get(id)?.conversation
  }

  threads(id: string): readonly Thread[] | undefined {
    return this.s.byId.get(id)?.threads
  }

  /** The time of the last change the conversation's customer can see (ISO 8601). */
  customerModifiedAt(id: string): string | undefined {
    const last = this.s.byId.get(id)?.customerHistory.at(-1)
    return last && new Date(last.at).toISOString()
  }

  /** A page of conversations, in `viewer`'s order (see `listConversations`). */
  list(filter: ConversationFilter, limit: number, cursor: string | null, viewer: Viewer = 'agent'): Page<Conversation> {
    return listConversations(this.s.entries, this.s.rev, { filter, limit, cursor, viewer })
  }

  create(input: CreateInput, now = Date.now()): { conversation: Conversation; thread: Thread } {
    const id = this.s.newId('cnv')
    const at = new Date(now).toISOString()
    const threadId = this.s.newId('thr')
    const thread: Thread = {
      id: threadId,
      conversationId: id,
      type: 'customer',
      text: input.text,
      attachments: input.attach?.(threadId) ?? [],
      createdAt: at,
      author: { type: 'customer', id: input.customer.id, name: input.customer.name, email: input.customer.email },
    }
    const conversation: Conversation = {
      id,
      number: this.s.nextNumber++,
      mailboxId: input.mailboxId,
      subject: input.subject,
      preview: previewOf([thread]),
      status: input.status,
      customer: input.customer,
      assigneeId: input.assigneeId,
      tags: input.tags,
      threadCount: 1,
      createdAt: at,
      modifiedAt: at,
      closedAt: input.status === 'closed' ? at : null,
      customerRead: null,
    }
    const stamp = { rev: ++this.s.rev, at: now }
    const entry = { conversation, threads: [thread], history: [stamp], customerHistory: [stamp] }
    this.s.entries.push(entry)
    this.s.byId.set(id, entry)
    return { conversation, thread }
  }

  /** Checks everything before changing anything; an empty `changes` means a no-op. */
  update(
    id: string,
    patch: UpdateInput,
    now = Date.now(),
  ): { conversation: Conversation; changes: Changes } | undefined {
    const entry = this.s.byId.get(id)
    if (!entry) return undefined
    const c = entry.conversation
    if (patch.status !== undefined) checkTransition(c.status, patch.status)
    const changes: Changes = {}
    if (patch.status !== undefined && patch.status !== c.status) changes.status = { from: c.status, to: patch.status }
    if (patch.assigneeId !== undefined && patch.assigneeId !== c.assigneeId)
      changes.assigneeId = { from: c.assigneeId, to: patch.assigneeId }
    if (patch.tags && patch.tags.join('\n') !== c.tags.join('\n')) changes.tags = { from: c.tags, to: patch.tags }
    if (Object.keys(changes).length === 0) return { conversation: c, changes }
    // Of a PATCH, the customer sees the status alone: tags and the assignee are the agents' business.
    this.modify(entry, now, changes.status !== undefined, {
      ...(changes.status ? { status: changes.status.to } : {}),
      ...(changes.assigneeId ? { assigneeId: changes.assigneeId.to } : {}),
      ...(changes.tags ? { tags: changes.tags.to } : {}),
    })
    return { conversation: entry.conversation, changes }
  }

  /**
   * A reply or a customer's message reopens a closed conversation (a reply then applies `status`
   * if given, from active, so any status is allowed); a note never changes the status.
   */
  addThread(
    id: string,
    type: ThreadType,
    text: string,
    author: ThreadAuthor,
    status?: ConversationStatus,
    attach?: Attach,
    now = Date.now(),
  ): { thread: Thread; conversation: Conversation; changes: Changes } | undefined {
    const entry = this.s.byId.get(id)
    if (!entry) return undefined
    const from = entry.conversation.status
    const to = type === 'note' ? from : (status ?? (from === 'closed' ? 'active' : from))
    const threadId = this.s.newId('thr')
    const thread: Thread = {
      id: threadId,
      conversationId: id,
      type,
      author,
      text,
      attachments: attach?.(threadId) ?? [],
      createdAt: new Date(now).toISOString(),
    }
    entry.threads = [...entry.threads, thread]
    // A note is the agents' own: the customer's view of the conversation (its time, its place in
    // the customer's list) does not move for it.
    this.modify(entry, now, type !== 'note', {
      status: to,
      threadCount: entry.threads.length,
      ...(type !== 'note' ? { preview: previewOf(entry.threads) } : {}),
    })
    return { thread, conversation: entry.conversation, changes: to === from ? {} : { status: { from, to } } }
  }

  /**
   * Where the customer has read up to: the latest message they can see, when they mark it read or
   * write one (they read what came before it). Neither `modifiedAt` nor any list order moves (a
   * read is not a change of the conversation). Undefined when unchanged.
   */
  markCustomerRead(id: string, now = Date.now()): Conversation | undefined {
    const entry = this.s.byId.get(id)
    const latest = entry && visible(entry.threads).at(-1)
    if (!entry || !latest || entry.conversation.customerRead?.threadId === latest.id) return undefined
    entry.conversation = {
      ...entry.conversation,
      customerRead: { threadId: latest.id, at: new Date(now).toISOString() },
    }
    return entry.conversation
  }

  /** Replaces (never mutates) the conversation, so bodies already sent or remembered stay as they were. */
  private modify(entry: Entry, now: number, customerSees: boolean, patch: Partial<Conversation>): void {
    const before = entry.conversation
    const at = new Date(now).toISOString()
    const status = patch.status ?? before.status
    const closedAt = status !== 'closed' ? null : before.status === 'closed' ? before.closedAt : at
    entry.conversation = { ...before, ...patch, modifiedAt: at, closedAt }
    const stamp = { rev: ++this.s.rev, at: now }
    entry.history.push(stamp)
    if (customerSees) entry.customerHistory.push(stamp)
  }
}

/**
 * A seeded conversation's last change its customer saw: its start, its last message or reply,
 * its closing (the seed stamps `modifiedAt` with its last thread, which may be a note).
 */
function seenByCustomer(c: Conversation, threads: readonly Thread[]): number {
  const times = [c.createdAt, c.closedAt, ...threads.filter((t) => t.type !== 'note').map((t) => t.createdAt)]
  return Math.max(...times.map((t) => (t === null ? -Infinity : Date.parse(t))))
}
