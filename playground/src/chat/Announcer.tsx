import type { Message } from '@tandem/realtime'
import type { ChatText } from './chat-text.js'
import type { ChatMessage } from './message-row.js'
import { useAnnouncer } from './use-announcer.js'

export interface AnnouncerProps {
  messages: readonly Message<ChatMessage>[]
  user: string
  active: boolean
  said: ChatText['said']
}

/** What a screen reader hears of the chat; its own component, so an announcement renders nothing else. */
export function Announcer({ messages, user, active, said }: AnnouncerProps) {
  const text = useAnnouncer(messages, user, active, { said })
  return (
    <p className="sr-only" aria-live="polite" data-testid="chat-announcer">
      {text}
    </p>
  )
}
