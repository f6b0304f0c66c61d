import { DEFAULTS, type PublishAck } from '@tandem/realtime'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { describeError } from '../lib/format.js'
import type { ChatMessage } from './message-row.js'

const TYPING_IDLE_MS = 2500
/** What a message's text may take: the service's frame limit less the frame around it (type, ids, key). */
const MAX_TEXT_BYTES = DEFAULTS.maxMessageBytes - 512

export interface ComposerProps {
  user: string
  connected: boolean
  publish: (event: string, data?: unknown) => Promise<PublishAck>
  /** Told when this user starts or stops typing (not on every key). */
  onTyping: (typing: boolean) => void
}

/**
 * The message input. Its text is its own state: a keystroke re-renders this form, never the list.
 * Publishes made while disconnected wait in the SDK's queue and go after the resume, once each.
 */
export function Composer({ user, connected, publish, onTyping }: ComposerProps) {
  const [text, setText] = useState('')
  const typing = useRef(false)
  const idle = useRef<ReturnType<typeof setTimeout>>(undefined)
  const setTyping = (now: boolean) => {
    if (typing.current === now) return
    typing.current = now
    onTyping(now)
  }
  const edit = (value: string) => {
    setText(value)
    setTyping(value.trim().length > 0)
    clearTimeout(idle.current)
    if (value.trim()) idle.current = setTimeout(() => setTyping(false), TYPING_IDLE_MS)
  }
  useEffect(() => () => clearTimeout(idle.current), [])

  const [waiting, setWaiting] = useState(0)
  const [sendError, setSendError] = useState<string>()
  const send = (body: string) => {
    setWaiting((n) => n + 1)
    publish('message', { text: body } satisfies ChatMessage)
      .then(
        () => setSendError(undefined),
        (e: unknown) => {
          setSendError(describeError(e))
          setText((now) => now || body) // a message that did not go is not lost: it comes back to the input
        },
      )
      .finally(() => setWaiting((n) => n - 1))
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const body = text.trim()
    if (!body) return
    const bytes = new TextEncoder().encode(body).length
    if (bytes > MAX_TEXT_BYTES) {
      // Checked before the input is cleared: the text stays, to be shortened.
      setSendError(`Too long: ${bytes.toLocaleString('en')} bytes, at most ${MAX_TEXT_BYTES.toLocaleString('en')}.`)
      return
    }
    setSendError(undefined)
    send(body)
    edit('')
  }
  const burst = () => {
    for (let i = 1; i <= 5; i++) send(`${user} #${i} of a burst of 5`)
  }

  return (
    <>
      <form className="row chat-form" onSubmit={submit}>
        <input
          aria-label="Message"
          placeholder={`Message as ${user}`}
          value={text}
          onChange={(e) => edit(e.target.value)}
          className="grow"
          dir="auto"
          aria-invalid={sendError?.startsWith('Too long') || undefined}
          aria-describedby={sendError ? 'chat-send-error' : undefined}
        />
        <button type="submit" className="primary" disabled={!text.trim()}>
          Send
        </button>
        <button type="button" onClick={burst} title="Publish 5 messages at once">
          Send 5
        </button>
      </form>
      {(waiting > 0 || sendError) && (
        <p className="small muted" data-testid="waiting">
          {waiting > 0 &&
            `${waiting} waiting for an acknowledgement${connected ? '' : ' (queued until the connection is back)'}`}
          {sendError && (
            <span className="error" role="alert" data-testid="send-error" id="chat-send-error">
              {' '}
              {sendError}
            </span>
          )}
        </p>
      )}
    </>
  )
}
