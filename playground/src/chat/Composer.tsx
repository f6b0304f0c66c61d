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
  const [tooLong, setTooLong] = useState<string>()
  const typing = useRef(false)
  const idle = useRef<ReturnType<typeof setTimeout>>(undefined)
  const setTyping = (now: boolean) => {
    if (typing.current === now) return
    typing.current = now
    onTyping(now)
  }
  const edit = (value: string) => {
    setText(value)
    setTooLong(undefined) // the reason was the old text's
    setTyping(value.trim().length > 0)
    clearTimeout(idle.current)
    if (value.trim()) idle.current = setTimeout(() => setTyping(false), TYPING_IDLE_MS)
  }
  useEffect(() => () => clearTimeout(idle.current), [])

  const [waiting, setWaiting] = useState(0)
  // Messages that did not go, kept until sent again or dropped: none is lost, and a later success
  // does not hide an earlier failure.
  const [unsent, setUnsent] = useState<{ texts: string[]; reason: string }>({ texts: [], reason: '' })
  const send = (body: string) => {
    setWaiting((n) => n + 1)
    publish('message', { text: body } satisfies ChatMessage)
      .catch((e: unknown) => setUnsent((u) => ({ texts: [...u.texts, body], reason: describeError(e) })))
      .finally(() => setWaiting((n) => n - 1))
  }
  const sendAgain = () => {
    const { texts } = unsent
    setUnsent({ texts: [], reason: '' })
    texts.forEach(send)
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const body = text.trim()
    if (!body) return
    const bytes = new TextEncoder().encode(body).length
    if (bytes > MAX_TEXT_BYTES) {
      // Checked before the input is cleared: the text stays, to be shortened.
      setTooLong(`Too long: ${bytes.toLocaleString('en')} bytes, at most ${MAX_TEXT_BYTES.toLocaleString('en')}.`)
      return
    }
    setTooLong(undefined)
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
          aria-invalid={tooLong ? true : undefined}
          aria-describedby={tooLong ? 'chat-too-long' : undefined}
        />
        <button type="submit" className="primary" disabled={!text.trim()}>
          Send
        </button>
        <button type="button" onClick={burst} title="Publish 5 messages at once">
          Send 5
        </button>
      </form>
      {(waiting > 0 || tooLong || unsent.texts.length > 0) && (
        <div className="small muted chat-status" data-testid="waiting">
          {waiting > 0 && (
            <p>{`${waiting} waiting for an acknowledgement${connected ? '' : ' (queued until the connection is back)'}`}</p>
          )}
          {tooLong && (
            <p className="error" role="alert" id="chat-too-long" data-testid="send-error">
              {tooLong}
            </p>
          )}
          {unsent.texts.length > 0 && (
            <p className="error" role="alert" data-testid="unsent">
              {unsent.texts.length === 1
                ? `“${unsent.texts[0]}” was not sent: ${unsent.reason}`
                : `${unsent.texts.length} messages were not sent: ${unsent.reason}`}{' '}
              <button type="button" onClick={sendAgain} data-testid="send-again">
                Send again
              </button>{' '}
              <button type="button" onClick={() => setUnsent({ texts: [], reason: '' })}>
                Drop
              </button>
            </p>
          )}
        </div>
      )}
    </>
  )
}
