import { PAGE_MAX, type CustomerConversation } from '@tandem/contract'
import type { TandemError } from '../errors.js'
import type { ReadableStore } from '../store.js'
import { INITIAL_TABLE, transition, type TableEvent, type TableState } from './conversation-table-machine.js'
import { createLazyStore } from './lazy-store.js'
import { createLiveRunner, toTandemError, type StoreDeps } from './live-runner.js'
import { statusOf } from './store-phase.js'
import type { ConversationListSnapshot, UnreadSnapshot } from './types.js'

// The customer's conversations (conversation-table-machine.ts decides), once, behind two stores:
// the list (most recently modified first) and the unread counts.

export interface ConversationTable {
  readonly unread: ReadableStore<UnreadSnapshot>
  readonly list: ReadableStore<ConversationListSnapshot> & { refresh: () => Promise<void> }
  /** The one writer: a conversation's new state, a resync, the shutdown (`close`). */
  dispatch: (event: TableEvent) => void
}

const EMPTY_MAP: ReadonlyMap<string, number> = new Map()

export function createConversationTable(deps: StoreDeps): ConversationTable {
  const runner = createLiveRunner(INITIAL_TABLE, transition, deps, { publish, load })
  const status = 'idle'
  const list = createLazyStore<ConversationListSnapshot>({ status, conversations: [], error: null }, runner.acquire)
  const unread = createLazyStore<UnreadSnapshot>(
    { status, total: 0, byConversation: EMPTY_MAP, error: null },
    runner.acquire,
  )

  /** Each snapshot the same object as before when nothing it shows changed. */
  function publish({ phase, conversations, error }: TableState) {
    const status = statusOf(phase)
    // The machine keeps the same array while no row changed.
    list.set((s) =>
      s.status === status && s.error === error && s.conversations === conversations
        ? s
        : { status, conversations, error },
    )
    const counts = new Map(conversations.map((c) => [c.id, c.unreadCount]))
    const total = conversations.reduce((n, c) => n + c.unreadCount, 0)
    unread.set((s) =>
      s.status === status &&
      s.error === error &&
      s.total === total &&
      s.byConversation.size === counts.size &&
      [...counts].every(([id, n]) => s.byConversation.get(id) === n)
        ? s
        : { status, total, byConversation: counts, error },
    )
  }

  /** Every page, up to the cap; on an error, the pages that did load come with it. */
  async function load({ clock: since }: TableState): Promise<TableEvent> {
    const conversations: CustomerConversation[] = []
    let error: TandemError | null = null
    try {
      const pages = deps.rest.conversations.list({ limit: PAGE_MAX }, { signal: deps.signal })
      for await (const page of pages.pages({ maxPages: deps.maxPages })) conversations.push(...page.data)
    } catch (e) {
      error = toTandemError(e)
    }
    return { type: 'loaded', since, conversations, error }
  }

  return {
    unread,
    list: { getSnapshot: list.getSnapshot, subscribe: list.subscribe, refresh: runner.refresh },
    dispatch: runner.dispatch,
  }
}
