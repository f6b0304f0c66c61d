import type { Message } from '@tandem/realtime'
import { useEffect, useRef, useState } from 'react'
import type { ChatText } from './chat-text.js'
import type { ChatMessage } from './message-row.js'

/** At most one announcement this often: a flood must not become a flood of speech. */
const EVERY_MS = 1500

/**
 * What a screen reader hears of the chat: the newest line by someone else (`latest`), at most once
 * every 1.5 s, while the chat is shown. Lines already there when it was shown are not read out.
 */
export function useAnnouncer(
  latest: Message<ChatMessage> | undefined,
  active: boolean,
  text: Pick<ChatText, 'said'>,
): string {
  const [said, setSaid] = useState('')
  const newest = useRef<Message<ChatMessage> | undefined>(undefined)
  const say = useRef(text.said)
  useEffect(() => {
    say.current = text.said
    newest.current = latest
  })
  useEffect(() => {
    if (!active) return
    let spoken = newest.current?.messageId
    const timer = setInterval(() => {
      const m = newest.current
      if (!m || m.messageId === spoken) return
      spoken = m.messageId
      setSaid(say.current(m.clientId ?? 'someone', typeof m.data?.text === 'string' ? m.data.text : ''))
    }, EVERY_MS)
    return () => clearInterval(timer)
  }, [active])
  return said
}
