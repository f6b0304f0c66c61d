// Conversations and their threads, in memory. Lists are ordered most recently modified first
// (id descending breaks ties) and paged with snapshot keyset cursors: see `list()`. Each
// conversation keeps two modification times: its own (agents see it) and the last change its
// customer can see, which an internal note, a tag or an assignee never moves.
import { badCursor, decodeCursor, encodeCursor, isCount, type Page } from './cursor.js'
import { createIds, newFaker, previewOf, seedSupport } from './seed.js'
import { checkTransition } from './transitions.js'
import type {
  Conversation,
  ConversationStatus,
  Customer,
  SupportData,
  Thread,
  ThreadAuthor,
  ThreadType,
} from './types.js'

interface Entry {
  conversation: Conversation
  threads: Thread[]
  /** Every modification time with the store revision that made it, oldest first. */
  history: Stamp[]
  /** The same for the changes a customer sees: created, a customer message, a reply, a status change. */
  customerHistory: Stamp[]
}

interface Stamp {
  rev: number
  at: number
}

/** Whose order a list follows: the agents' (every change) or the customer's (what it can see). */
export type Viewer = 'agent' | 'customer'

export interface ConversationFilter {
  mailboxId?: string
  status?: ConversationStatus
  tag?: string
  /** Lower-cased words that must all occur. */
  words?: string[]
  /** Modified at or after (ms): the viewer's modification time. */
  modifiedSince?: number
  /** One customer's conversations (`customer.id`). */
  customerId?: string
}

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
}

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

  /**
   * Snapshot keyset pagination. The first page pins the current revision `r`; every page orders
   * conversations by their modification time *as of r* (then id), and continues after the last
   * (time, id) it returned. So a walk sees each conversation that existed at `r` exactly once,
   * even when conversations are modified between pages (they keep their place in the walk;
   * their data is current). Conversations created after `r` are left to a new walk. Filters
   * apply to current data. `viewer` picks the times: a customer's list moves only on what it sees.
   */
  list(filter: ConversationFilter, limit: number, cursor: string | null, viewer: Viewer = 'agent'): Page<Conversation> {
    // A cursor belongs to one viewer's order: another's is a 400, not a page out of order.
    const kind = viewer === 'agent' ? 'cnv' : 'cnv_me'
    let rev = this.s.rev
    let after: { m: number; i: string } | undefined
    if (cursor) {
      const c = decodeCursor(cursor, kind)
      if (!isCount(c.r) || !isCount(c.m) || typeof c.i !== 'string') throw badCursor()
      rev = c.r
      after = { m: c.m, i: c.i }
    }
    const rows: { key: number; entry: Entry }[] = []
    for (const entry of this.s.entries) {
      const stamps = viewer === 'agent' ? entry.history : entry.customerHistory
      const key = keyAt(stamps, rev)
      if (key === undefined || !matches(entry, filter, stamps)) continue
      const id = entry.conversation.id
      if (after && !(key < after.m || (key === after.m && id < after.i))) continue
      rows.push({ key, entry })
    }
    rows.sort((a, b) => b.key - a.key || (a.entry.conversation.id < b.entry.conversation.id ? 1 : -1))
    const page = rows.slice(0, limit)
    const last = page[page.length - 1]
    const nextCursor =
      rows.length > limit && last ? encodeCursor(kind, { r: rev, m: last.key, i: last.entry.conversation.id }) : null
    return { data: page.map((r) => r.entry.conversation), nextCursor }
  }

  create(input: CreateInput, now = Date.now()): { conversation: Conversation; thread: Thread } {
    const id = this.s.newId('cnv')
    const at = new Date(now).toISOString()
    const thread: Thread = {
      id: this.s.newId('thr'),
      conversationId: id,
      type: 'customer',
      text: input.text,
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
    now = Date.now(),
  ): { thread: Thread; conversation: Conversation; changes: Changes } | undefined {
    const entry = this.s.byId.get(id)
    if (!entry) return undefined
    const from = entry.conversation.status
    const to = type === 'note' ? from : (status ?? (from === 'closed' ? 'active' : from))
    const thread: Thread = {
      id: this.s.newId('thr'),
      conversationId: id,
      type,
      author,
      text,
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

/** The modification time a conversation had at revision `rev`; undefined if it did not exist yet. */
function keyAt(stamps: readonly Stamp[], rev: number): number | undefined {
  for (let i = stamps.length - 1; i >= 0; i--) {
    const h = stamps[i]
    if (h && h.rev <= rev) return h.at
  }
  return undefined
}

function matches({ conversation: c, threads }: Entry, f: ConversationFilter, stamps: readonly Stamp[]): boolean {
  if (f.customerId !== undefined && c.customer.id !== f.customerId) return false
  if (f.mailboxId !== undefined && c.mailboxId !== f.mailboxId) return false
  if (f.status !== undefined && c.status !== f.status) return false
  if (f.tag !== undefined && !c.tags.includes(f.tag)) return false
  if (f.modifiedSince !== undefined && (stamps.at(-1)?.at ?? -Infinity) < f.modifiedSince) return false
  if (f.words?.length) {
    const customerText = threads.filter((t) => t.type === 'customer').map((t) => t.text)
    const haystack = [c.subject, c.preview, c.customer.email ?? '', c.customer.name ?? '', ...customerText]
      .join('\n')
      .toLowerCase()
    return f.words.every((w) => haystack.includes(w))
  }
  return true
}
