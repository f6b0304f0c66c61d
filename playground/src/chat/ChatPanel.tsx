import { DEFAULTS, type Message } from '@tandem/realtime'
import { useChannel, useConnectionState, usePresence } from '@tandem/react/realtime'
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { describeError, time } from '../lib/format.js'
import { useSession } from '../lib/session-context.js'
import { ConnectionBadge } from './ConnectionBadge.js'
import { TabRole } from './TabRole.js'

const CHANNEL = 'chat:lobby'
const TYPING_IDLE_MS = 2500
/** What a message's text may take: the service's frame limit less the frame around it (type, ids, key). */
const MAX_TEXT_BYTES = DEFAULTS.maxMessageBytes - 512

interface ChatMessage {
  text: string
}
interface Presence {
  name: string
  typing: boolean
}

export function ChatPanel() {
  const { user, log } = useSession()
  const [messages, setMessages] = useState<Message<ChatMessage>[]>([])
  const [duplicates, setDuplicates] = useState(0)
  const seen = useRef(new Set<string>())

  // Live messages, in offset order, each once (the SDK's promise). We do NOT deduplicate them
  // here: a duplicate would be counted and shown twice, so the page (and its tests) would see it.
  const { channel, state, publish } = useChannel<ChatMessage>(
    CHANNEL,
    (m) => {
      if (seen.current.has(m.messageId)) setDuplicates((n) => n + 1)
      seen.current.add(m.messageId)
      setMessages((list) => [...list, m])
    },
    { event: 'message' },
  )

  // What was said before this tab joined: history once subscribed, merged by id (it may overlap
  // live messages that arrived while it was in flight).
  const loaded = useRef(false)
  const [historyLoaded, setHistoryLoaded] = useState(false)
  useEffect(() => {
    if (state !== 'subscribed' || loaded.current) return
    loaded.current = true
    channel
      .history({ limit: 50 })
      .then((h) => {
        const older = (h.messages as Message<ChatMessage>[]).filter(
          (m) => m.event === 'message' && !seen.current.has(m.messageId),
        )
        older.forEach((m) => seen.current.add(m.messageId))
        setMessages((list) => [...older, ...list].sort((a, b) => a.offset - b.offset))
      })
      .catch((e: unknown) => log.add('error', `history: ${describeError(e)}`))
      .finally(() => setHistoryLoaded(true))
  }, [state, channel, log])

  useEffect(
    () =>
      channel.on('discontinuity', (d) =>
        log.add('realtime', `${d.channel}: discontinuity (${d.reason}), some messages could not be recovered`),
      ),
    [channel, log],
  )

  // Presence: we enter with our name; `typing` rides along in our presence data.
  const [typing, setTyping] = useState(false)
  const { members } = usePresence<Presence>(CHANNEL, { name: user, typing })
  const people = useMemo(() => {
    const byClient = new Map<string, { name: string; typing: boolean; connections: number }>()
    for (const m of members) {
      const p = byClient.get(m.clientId) ?? { name: m.data?.name ?? m.clientId, typing: false, connections: 0 }
      p.typing ||= Boolean(m.data?.typing)
      p.connections++
      byClient.set(m.clientId, p)
    }
    return [...byClient.entries()]
      .map(([clientId, p]) => ({ clientId, ...p }))
      .sort((a, b) => a.name.localeCompare(b.name))
  }, [members])
  const typers = people.filter((p) => p.typing && p.clientId !== user).map((p) => p.name)

  const [text, setText] = useState('')
  const idle = useRef<ReturnType<typeof setTimeout>>(undefined)
  const edit = (value: string) => {
    setText(value)
    setTyping(value.trim().length > 0)
    clearTimeout(idle.current)
    if (value.trim()) idle.current = setTimeout(() => setTyping(false), TYPING_IDLE_MS)
  }
  useEffect(() => () => clearTimeout(idle.current), [])

  // Publishes made while disconnected wait in the SDK's queue and go after the resume, once each.
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

  const connection = useConnectionState()
  const [control, setControl] = useState<string>()
  const dev = async (what: 'drop' | 'expire') => {
    setControl(undefined)
    try {
      const res = await fetch(`/api/dev/${what}?user=${encodeURIComponent(user)}`, { method: 'POST' })
      const body = (await res.json()) as { dropped?: number; revoked?: number }
      const n = body.dropped ?? body.revoked ?? 0
      const text =
        what === 'drop'
          ? `dropped ${n} socket(s) of ${user}`
          : `revoked ${user}'s tokens (${n} socket(s) closed with 4102)`
      setControl(text)
      log.add('app', `dev: ${text}`)
    } catch (e) {
      setControl(describeError(e))
    }
  }

  const list = useRef<HTMLOListElement>(null)
  useLayoutEffect(() => {
    const el = list.current
    if (el) el.scrollTop = el.scrollHeight
  }, [messages.length])

  return (
    <div className="chat">
      <section className="card chat-main" aria-label="Chat">
        <header className="list-head">
          <h2>#{CHANNEL.split(':')[1]}</h2>
          <span className="muted small">
            channel <code>{CHANNEL}</code> · {state}
          </span>
          <span className="grow" />
          <span className="small muted" data-testid="chat-counts">
            {messages.length} {messages.length === 1 ? 'message' : 'messages'} ·{' '}
            <span className={duplicates ? 'error' : ''} data-testid="duplicates">
              {duplicates} duplicates
            </span>
          </span>
        </header>
        <ol
          className="messages"
          ref={list}
          data-testid="messages"
          data-history={historyLoaded ? 'loaded' : 'loading'}
          aria-live="polite"
          aria-label="Chat history"
          // Scrollable: the keyboard must be able to reach it to scroll it.
          tabIndex={0}
        >
          {messages.map((m) => (
            <li
              key={`${m.messageId}-${m.offset}`}
              className={`message ${m.clientId === user ? 'mine' : ''}`}
              data-testid="message"
              data-id={m.messageId}
              data-offset={m.offset}
            >
              <div className="message-head small">
                <strong>{m.clientId ?? 'someone'}</strong>{' '}
                <span className="muted">
                  {time(m.ts)} · #{m.offset}
                </span>
              </div>
              <div className="message-text">{m.data?.text}</div>
            </li>
          ))}
          {!messages.length && (
            <li className="muted empty-chat">No messages yet. Say hello, then open this page in another tab.</li>
          )}
        </ol>
        <p className="typing small muted" data-testid="typing" aria-live="polite">
          {typers.length ? `${typers.join(', ')} ${typers.length > 1 ? 'are' : 'is'} typing…` : ' '}
        </p>
        <form className="row" onSubmit={submit}>
          <input
            aria-label="Message"
            placeholder={`Message as ${user}`}
            value={text}
            onChange={(e) => edit(e.target.value)}
            className="grow"
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
              `${waiting} waiting for an acknowledgement${connection.state !== 'connected' ? ' (queued until the connection is back)' : ''}`}
            {sendError && (
              <span className="error" role="alert" data-testid="send-error">
                {' '}
                {sendError}
              </span>
            )}
          </p>
        )}
      </section>

      <aside className="chat-side">
        <section className="card" aria-label="Who is online">
          <h2>
            Online <span className="muted small">({people.length})</span>
          </h2>
          <ul className="people" data-testid="presence">
            {people.map((p) => (
              <li key={p.clientId} data-testid="member" data-client={p.clientId}>
                <span className="avatar" aria-hidden="true">
                  {p.name.slice(0, 1).toUpperCase()}
                </span>
                <span className="grow">
                  {p.name}
                  {p.clientId === user ? ' (you)' : ''}
                </span>
                {p.typing && <span className="muted small">typing…</span>}
                {p.connections > 1 && <span className="muted small">{p.connections} tabs</span>}
              </li>
            ))}
          </ul>
        </section>
        <section className="card" aria-label="Connection">
          <h2>Connection</h2>
          <p>
            <ConnectionBadge announce={false} />
          </p>
          <TabRole />
          {connection.error && (
            <p className="small error">
              {connection.error.code}: {connection.error.message}
            </p>
          )}
          <p className="hint">
            Break the link and watch the client recover: every message arrives once, in order, none lost.
          </p>
          <div className="stack">
            <button type="button" onClick={() => void dev('drop')} data-testid="drop">
              Drop connection
            </button>
            <button type="button" onClick={() => void dev('expire')} data-testid="expire">
              Expire token
            </button>
          </div>
          {control && (
            <p className="small muted" data-testid="control-result">
              {control}
            </p>
          )}
        </section>
      </aside>
    </div>
  )
}
