// The customer side of support, as the SDK offers it (`messenger(client)` from
// @tandem/core/messenger): the REST calls of /support/v1/me, and live stores fed by the
// customer's own channel. Every shape is the contract's.
import type {
  Article,
  ArticleSummary,
  CustomerConversation,
  CustomerConversationStart,
  CustomerMessage,
  CustomerMessageCreate,
  CustomerProfile,
  CustomerTyping,
} from '@tandem/contract'
import type { LiveSource } from '../cache/live.js'
import type { RequestClient } from '../client-request.js'
import type { PagePromise } from '../collection.js'
import type { TandemError } from '../errors.js'
import type { ReadableStore } from '../store.js'
import type { CallOptions, Unsubscribe, WriteOptions } from '../types.js'

export type {
  Article,
  ArticleSummary,
  CustomerConversation,
  CustomerConversationStart,
  CustomerMessage,
  CustomerMessageCreate,
  CustomerProfile,
  CustomerTyping,
  ReadableStore,
}

export interface MessengerOptions {
  /**
   * A realtime connection (`createRealtime` from @tandem/realtime, shared across tabs or not):
   * with it, messages, typing and unread counts are live. Without it, nothing is live.
   */
  realtime?: LiveSource
  /**
   * The most pages a thread or the conversation list reads of one list: one with more shows what
   * it read and an `ApiError` `too_many_pages`.
   * @default 50
   */
  maxPages?: number
}

/** Page size (1–100) and the `nextCursor` of the previous page. */
export interface MessengerPageParams {
  limit?: number
  cursor?: string
}

/** What every live store's snapshot carries. */
export type MessengerStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface UnreadSnapshot {
  status: MessengerStatus
  /** Unread agent messages across all the customer's conversations. */
  total: number
  /** Per conversation id (a Map: the keys are service ids). */
  byConversation: ReadonlyMap<string, number>
  error: TandemError | null
}

export interface ConversationListSnapshot {
  status: MessengerStatus
  /** Most recently modified first; live. */
  conversations: readonly CustomerConversation[]
  error: TandemError | null
}

export interface ThreadSnapshot {
  status: MessengerStatus
  conversation: CustomerConversation | null
  /** Oldest first, each once (live pushes and refetches are merged by id). */
  messages: readonly CustomerMessage[]
  /** The name of the agent typing now (null when none, or the agent has no name: then `agentTyping`). */
  typingName: string | null
  agentTyping: boolean
  error: TandemError | null
}

export interface HelpSearchSnapshot {
  /** `idle` while the query is blank. */
  status: MessengerStatus
  /** The query these results answer. */
  query: string
  articles: readonly ArticleSummary[]
  error: TandemError | null
}

export interface HelpSearchOptions {
  /**
   * The pause after the last keystroke before a search is sent, in ms.
   * @default 250 (`DEFAULTS.helpSearchDebounceMs`)
   */
  debounceMs?: number
  /** Articles per answer (1–100). */
  limit?: number
}

/** One search box's results: `search(query)` on each keystroke; `close()` cancels what is pending (a later `search` starts again). */
export interface HelpSearch extends ReadableStore<HelpSearchSnapshot> {
  search: (query: string) => void
  close: () => void
}

/** @deprecated Use `ReadableStore` (core's one store interface, the same two methods). */
export type ReadStore<T> = ReadableStore<T>

/** A customer's new message: the contract's body, and `files` to upload first (`text` may be blank beside them). */
export type MessageInput = CustomerMessageCreate & { files?: readonly Blob[] }
export type StartInput = CustomerConversationStart & { files?: readonly Blob[] }

export interface Messenger {
  /** The client this messenger was made with (for `uploads(messenger.client)` of `@tandem/core/uploads`). */
  readonly client: RequestClient
  /** The customer the token says, with the unread total. */
  me(options?: CallOptions): Promise<CustomerProfile>
  conversations: {
    list(params?: MessengerPageParams, options?: CallOptions): PagePromise<CustomerConversation>
    get(id: string, options?: CallOptions): Promise<CustomerConversation>
    messages(id: string, params?: MessengerPageParams, options?: CallOptions): PagePromise<CustomerMessage>
    start(input: StartInput, options?: WriteOptions): Promise<CustomerConversation>
    reply(id: string, input: MessageInput, options?: WriteOptions): Promise<CustomerMessage>
    markRead(id: string, options?: WriteOptions): Promise<CustomerConversation>
    /**
     * The customer is typing in this conversation (`true`, again on each keystroke), or stopped
     * (`false`: on send, blur, an emptied box, a pause). Sent at most every
     * `CUSTOMER_TYPING_RENEW_MS` while typing, at once when it stops; the agents see it until
     * `CUSTOMER_TYPING_TTL_MS` after the last. Never throws: a failure goes to `on('error')`.
     */
    typing(id: string, typing: boolean): void
  }
  docs: {
    search(
      params: { query: string; limit?: number; cursor?: string },
      options?: CallOptions,
    ): PagePromise<ArticleSummary>
    get(id: string, options?: CallOptions): Promise<Article>
  }
  /** Live events of the customer's channel (needs `realtime`); returns the unsubscribe. */
  on(event: 'message', listener: (message: CustomerMessage) => void): Unsubscribe
  on(event: 'conversation', listener: (conversation: CustomerConversation) => void): Unsubscribe
  on(event: 'typing', listener: (typing: CustomerTyping) => void): Unsubscribe
  /** What went wrong out of any call: a malformed push (dropped), the channel failing, a store's load. */
  on(event: 'error', listener: (error: TandemError) => void): Unsubscribe
  /** Unread counts, right in every tab (a read in one tab reaches the others through the channel). */
  readonly unread: ReadableStore<UnreadSnapshot>
  /** The customer's conversations, live. Loads on first subscribe. */
  conversationList(): ReadableStore<ConversationListSnapshot> & { refresh: () => Promise<void> }
  /** One conversation's messages, live; the same store for the same id while it has listeners. */
  thread(id: string): ReadableStore<ThreadSnapshot> & { refresh: () => Promise<void> }
  /** A search of the published docs as you type: debounced, a stale answer never shown (its request aborted). */
  helpSearch(options?: HelpSearchOptions): HelpSearch
  /** Stops listening and forgets every piece of customer state this messenger holds. */
  shutdown(): void
}
