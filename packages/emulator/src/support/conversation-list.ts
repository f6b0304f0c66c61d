// Reading lists from the store's stamps: conversations ordered most recently modified first (id
// descending breaks ties), paged with snapshot keyset cursors, in the agents' order or a customer's.
import { badCursor, decodeCursor, encodeCursor, isCount, type Page } from './cursor.js'
import type { Conversation, ConversationStatus, Thread } from './types.js'

/** A conversation as the store keeps it: with every modification stamp. */
export interface Entry {
  conversation: Conversation
  threads: Thread[]
  /** Every modification time with the store revision that made it, oldest first. */
  history: Stamp[]
  /** The same for the changes a customer sees: created, a customer message, a reply, a status change. */
  customerHistory: Stamp[]
}

export interface Stamp {
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

export interface ListRequest {
  filter: ConversationFilter
  limit: number
  cursor: string | null
  viewer: Viewer
}

/**
 * Snapshot keyset pagination. The first page pins the current revision `r`; every page orders
 * conversations by their modification time *as of r* (then id), and continues after the last
 * (time, id) it returned. So a walk sees each conversation that existed at `r` exactly once,
 * even when conversations are modified between pages (they keep their place in the walk;
 * their data is current). Conversations created after `r` are left to a new walk. Filters
 * apply to current data. `viewer` picks the times: a customer's list moves only on what it sees.
 */
export function listConversations(
  entries: readonly Entry[],
  currentRev: number,
  { filter, limit, cursor, viewer }: ListRequest,
): Page<Conversation> {
  // A cursor belongs to one viewer's order: another's is a 400, not a page out of order.
  const kind = viewer === 'agent' ? 'cnv' : 'cnv_me'
  let rev = currentRev
  let after: { m: number; i: string } | undefined
  if (cursor) {
    const c = decodeCursor(cursor, kind)
    if (!isCount(c.r) || !isCount(c.m) || typeof c.i !== 'string') throw badCursor()
    rev = c.r
    after = { m: c.m, i: c.i }
  }
  const rows: { key: number; entry: Entry }[] = []
  for (const entry of entries) {
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
