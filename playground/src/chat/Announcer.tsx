import type { Message } from '@tandem/realtime'
import type { ChatText } from './chat-text.js'
import type { ChatMessage } from './message-row.js'
import { useAnnouncer } from './use-announcer.js'

/** How far back from the newest message to look for one by someone else. */
const LOOK_BACK = 50

/** The newest of the last `LOOK_BACK` messages not by `user`, from the newest chunks back (never the whole log). */
export function latestFrom(
  chunks: readonly (readonly Message<ChatMessage>[])[],
  user: string,
): Message<ChatMessage> | undefined {
  let seen = 0
  for (let k = chunks.length - 1; k >= 0 && seen < LOOK_BACK; k--)
    for (let i = chunks[k]!.length - 1; i >= 0 && seen < LOOK_BACK; i--, seen++)
      if (chunks[k]![i]!.clientId !== user) return chunks[k]![i]
  return undefined
}

export interface AnnouncerProps {
  /** The newest line by someone else (one message, not the list: a new one re-renders this alone). */
  latest: Message<ChatMessage> | undefined
  active: boolean
  said: ChatText['said']
}

/** What a screen reader hears of the chat; its own component, so an announcement renders nothing else. */
export function Announcer({ latest, active, said }: AnnouncerProps) {
  const text = useAnnouncer(latest, active, { said })
  return (
    <p className="sr-only" aria-live="polite" data-testid="chat-announcer">
      {text}
    </p>
  )
}
