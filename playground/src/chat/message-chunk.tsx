import type { Message } from '@tandem/realtime'
import { memo } from 'react'
import { MessageRow, type ChatMessage } from './message-row.js'

/** Messages per chunk: a new message re-renders its own chunk, never the others on screen. */
export const CHUNK = 25

export interface MessageChunkProps {
  messages: readonly Message<ChatMessage>[]
  user: string
}

/** Groups a window's messages by offset (`CHUNK` per group), so each group keeps its key as the window slides. */
export function chunksOf(
  messages: readonly Message<ChatMessage>[],
): { key: string; messages: Message<ChatMessage>[] }[] {
  const chunks: { key: string; messages: Message<ChatMessage>[] }[] = []
  for (const m of messages) {
    const key = `${m.epoch}:${Math.floor(m.offset / CHUNK)}`
    const last = chunks[chunks.length - 1]
    if (last?.key === key) last.messages.push(m)
    else chunks.push({ key, messages: [m] })
  }
  return chunks
}

/**
 * A run of rows. Equal when it holds the same messages: the log never changes a message it holds,
 * so the first and last ids and the count say it all (the slice itself is new on every render).
 */
export const MessageChunk = memo(
  function MessageChunk({ messages, user }: MessageChunkProps) {
    return messages.map((m) => <MessageRow key={m.messageId} message={m} mine={m.clientId === user} />)
  },
  (a, b) =>
    a.user === b.user &&
    a.messages.length === b.messages.length &&
    a.messages[0]?.messageId === b.messages[0]?.messageId &&
    a.messages.at(-1)?.messageId === b.messages.at(-1)?.messageId,
)
