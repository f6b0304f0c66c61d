import type { Message } from '@tandem/realtime'
import { memo } from 'react'
import { MessageRow, type ChatMessage } from './message-row.js'

export interface MessageChunkProps {
  /** One of the log's chunks (useMessages' `chunks`: at most 16), or the part of it the window holds. */
  messages: readonly Message<ChatMessage>[]
  user: string
}

/**
 * A run of rows. A chunk that did not change is the same array in the log's next snapshot, so a new
 * message renders the newest chunk only. A part of a chunk (the window ends inside it) is a new slice
 * on every render: equal when it holds the same messages, and the log never changes a message it
 * holds, so the same first and last message and the same length say it all.
 */
export const MessageChunk = memo(
  function MessageChunk({ messages, user }: MessageChunkProps) {
    return messages.map((m) => <MessageRow key={m.messageId} message={m} mine={m.clientId === user} />)
  },
  (a, b) =>
    a.user === b.user &&
    (a.messages === b.messages ||
      (a.messages.length === b.messages.length &&
        a.messages[0] === b.messages[0] &&
        a.messages.at(-1) === b.messages.at(-1))),
)
