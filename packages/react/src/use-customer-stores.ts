import type { ConversationListSnapshot, ThreadSnapshot, UnreadSnapshot } from '@tandem/core/messenger'
import { useMemo, useSyncExternalStore } from 'react'
import { useMessenger } from './use-messenger.js'

// The messenger's live stores as hooks: each a useSyncExternalStore over the core store, which
// loads on its first listener and stops a lease delay after its last.

/**
 * Unread agent messages, in total and per conversation; right in every tab.
 *
 * @example
 * ```tsx
 * const { total } = useUnreadCount()
 * return total ? <span aria-label={`${total} unread`}>{total}</span> : null
 * ```
 */
export function useUnreadCount(): UnreadSnapshot {
  const { unread } = useMessenger()
  return useSyncExternalStore(unread.subscribe, unread.getSnapshot, unread.getSnapshot)
}

export interface CustomerConversationsResult extends ConversationListSnapshot {
  refresh: () => Promise<void>
}

/** The customer's conversations, most recently modified first; live. */
export function useCustomerConversations(): CustomerConversationsResult {
  const m = useMessenger()
  const store = useMemo(() => m.conversationList(), [m])
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
  return { ...snapshot, refresh: store.refresh }
}

export interface CustomerThreadResult extends ThreadSnapshot {
  refresh: () => Promise<void>
}

const NO_THREAD: ThreadSnapshot = {
  status: 'idle',
  conversation: null,
  messages: [],
  typingName: null,
  agentTyping: false,
  error: null,
}
const none = () => () => {}
const noThread = () => NO_THREAD
const noRefresh = async () => {}

/** One conversation's messages, oldest first, and who is typing; `idle` while `id` is null. */
export function useCustomerThread(id: string | null | undefined): CustomerThreadResult {
  const m = useMessenger()
  const store = useMemo(() => (id ? m.thread(id) : undefined), [m, id])
  const snapshot = useSyncExternalStore(
    store?.subscribe ?? none,
    store?.getSnapshot ?? noThread,
    store?.getSnapshot ?? noThread,
  )
  return { ...snapshot, refresh: store?.refresh ?? noRefresh }
}
