import type { Conversation, Thread } from '@tandem/core'

/**
 * The agents' reply "Seen" goes under: the last reply at or before where the customer has read up
 * to (`customerRead.threadId`; when that thread is not in the loaded list, the last one written by
 * `customerRead.at`). Undefined: none read yet.
 */
export function seenReplyId(threads: readonly Thread[], read: Conversation['customerRead']): string | undefined {
  if (!read) return undefined
  let upTo = threads.findIndex((t) => t.id === read.threadId)
  if (upTo < 0) {
    const at = Date.parse(read.at)
    for (let i = threads.length - 1; i >= 0 && upTo < 0; i--) if (Date.parse(threads[i]!.createdAt) <= at) upTo = i
  }
  for (let i = upTo; i >= 0; i--) if (threads[i]!.type === 'reply') return threads[i]!.id
  return undefined
}
