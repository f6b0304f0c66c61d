// What a customer sees of a conversation (docs/services/support.md, "Customers"): no mailbox,
// assignee, tags or internal notes; and how much of it they have read.
import type { CustomerConversation, CustomerMessage } from '@tandem/contract'
import type { Conversation, Thread } from './types.js'

/** Only the customer's messages and the agents' replies: a note is never shown to a customer. */
export const visible = (threads: readonly Thread[]): Thread[] => threads.filter((t) => t.type !== 'note')

export function toCustomerMessage(thread: Thread): CustomerMessage {
  return {
    id: thread.id,
    conversationId: thread.conversationId,
    author: { type: thread.author.type === 'customer' ? 'customer' : 'agent', name: thread.author.name },
    text: thread.text,
    attachments: thread.attachments,
    createdAt: thread.createdAt,
  }
}

/**
 * The customer's read point per conversation, as a count of threads seen (not a time: a reply in
 * the same millisecond as a read is still told apart). Writing a message counts as reading what
 * came before it, so a conversation the customer answered last has nothing unread.
 */
export class CustomerReads {
  private seen = new Map<string, number>()

  /** Marks everything up to now read (`read`, or the customer's own message). */
  markRead(conversationId: string, threads: readonly Thread[]): void {
    this.seen.set(conversationId, threads.length)
  }

  /** Agent replies after the read point (or after the customer's latest message, if later). */
  unread(conversationId: string, threads: readonly Thread[]): number {
    let from = this.seen.get(conversationId) ?? 0
    threads.forEach((t, i) => {
      if (t.type === 'customer' && i + 1 > from) from = i + 1
    })
    return threads.slice(from).filter((t) => t.type === 'reply').length
  }

  /**
   * `modifiedAt` is the customer's own (`ConversationStore.customerModifiedAt`), never the
   * conversation's: that one moves for an internal note too, and would tell the customer of it.
   */
  view(conversation: Conversation, threads: readonly Thread[], modifiedAt: string): CustomerConversation {
    const { id, subject, status, preview, createdAt, closedAt } = conversation
    return {
      id,
      subject,
      status,
      preview,
      messageCount: visible(threads).length,
      unreadCount: this.unread(id, threads),
      createdAt,
      modifiedAt,
      closedAt,
    }
  }

  reset(): void {
    this.seen.clear()
  }
}
