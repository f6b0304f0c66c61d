import type { Message } from '@tandem/realtime'
import { memo } from 'react'

export interface ChatMessage {
  text: string
}

// One formatter for every row: `toLocaleTimeString` with options builds one per call.
const CLOCK = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })

export interface MessageRowProps {
  message: Message<ChatMessage>
  mine: boolean
}

/**
 * One chat line. Memoised on its message (the log keeps each message object as it came), so a new
 * message or a keystroke re-renders no row already on screen. `dir="auto"`: a right-to-left line
 * aligns and punctuates as its own script wants.
 */
export const MessageRow = memo(function MessageRow({ message: m, mine }: MessageRowProps) {
  return (
    <li className={`message ${mine ? 'mine' : ''}`} data-testid="message" data-id={m.messageId} data-offset={m.offset}>
      <div className="message-head small">
        <strong>{m.clientId ?? 'someone'}</strong>{' '}
        <span className="muted">
          {CLOCK.format(m.ts)} · #{m.offset}
        </span>
      </div>
      <div className="message-text" dir="auto">
        {typeof m.data?.text === 'string' ? m.data.text : ''}
      </div>
    </li>
  )
})
