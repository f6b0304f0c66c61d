import { useChannel, useConnectionState, usePresence } from '@tandem/react/realtime'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { describeError } from '../lib/format.js'
import { useSession } from '../lib/session-context.js'
import './chat.css'
import { CHAT_TEXT, type ChatText } from './chat-text.js'
import { Composer } from './Composer.js'
import { ConnectionBadge } from './ConnectionBadge.js'
import { MessageList } from './MessageList.js'
import { TabRole } from './TabRole.js'

const CHANNEL = 'chat:lobby'

interface Presence {
  name: string
  typing: boolean
}

export interface ChatPanelProps {
  /** False while another panel is shown: the chat keeps its messages but renders nothing. */
  active?: boolean
  text?: Partial<ChatText>
}

export function ChatPanel({ active = true, text }: ChatPanelProps) {
  const t = { ...CHAT_TEXT, ...text }
  const { user, log } = useSession()
  // The channel's state and publish; the messages themselves are the list's (useMessages).
  const { channel, state, publish } = useChannel(CHANNEL)

  useEffect(
    () =>
      channel.on('discontinuity', (d) =>
        log.add('realtime', `${d.channel}: discontinuity (${d.reason}), some messages could not be recovered`),
      ),
    [channel, log],
  )

  // Presence: we enter with our name; `typing` rides along in our presence data.
  const [typing, setTyping] = useState(false)
  const onTyping = useCallback((now: boolean) => setTyping(now), [])
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
  const connection = useConnectionState()
  const connected = connection.state === 'connected'
  const typers = connected ? people.filter((p) => p.typing && p.clientId !== user).map((p) => p.name) : []

  const [control, setControl] = useState<string>()
  const dev = async (what: 'drop' | 'expire' | 'flood') => {
    // The dev server's controls: compiled out of a production build, where their buttons are absent too.
    if (!import.meta.env.DEV) return
    setControl(undefined)
    try {
      const query = what === 'flood' ? '&count=1000&rate=0' : ''
      const res = await fetch(`/api/dev/${what}?user=${encodeURIComponent(user)}${query}`, { method: 'POST' })
      const body = (await res.json()) as {
        dropped?: number
        revoked?: number
        flooding?: number
        error?: { code: string; message: string }
      }
      if (!res.ok) throw new Error(`${body.error?.code ?? res.status}: ${body.error?.message ?? res.statusText}`)
      const n = body.dropped ?? body.revoked ?? body.flooding ?? 0
      const said =
        what === 'drop'
          ? `dropped ${n} socket(s) of ${user}`
          : what === 'flood'
            ? `publishing ${n.toLocaleString('en')} messages from flood-bot`
            : `revoked ${user}'s tokens (${n} socket(s) closed as token_revoked)`
      setControl(said)
      log.add('app', `dev: ${said}`)
    } catch (e) {
      setControl(describeError(e))
    }
  }

  return (
    <div className="chat">
      <section className="card chat-main" aria-label="Chat">
        <MessageList channel={CHANNEL} user={user} state={state} active={active} text={text} />
        <p className="typing small muted" data-testid="typing" aria-live="polite">
          {typers.length ? `${typers.join(', ')} ${typers.length > 1 ? 'are' : 'is'} typing…` : ' '}
        </p>
        <Composer user={user} connected={connected} publish={publish} onTyping={onTyping} />
      </section>

      <aside className="chat-side">
        <section className="card" aria-label="Who is online">
          <h2>
            {t.online}{' '}
            {connected && (
              <span className="muted small" data-testid="online-count">
                {t.onlineCount(people.length)}
              </span>
            )}
          </h2>
          {/* Offline, the list is what was known when the link went: say so rather than claim it. */}
          {!connected && (
            <p className="small muted" data-testid="presence-stale">
              {t.offlinePresence}
            </p>
          )}
          <ul className={`people ${connected ? '' : 'stale'}`} data-testid="presence" data-stale={!connected}>
            {people.map((p) => (
              <li key={p.clientId} data-testid="member" data-client={p.clientId}>
                <span className="avatar" aria-hidden="true">
                  {p.name.slice(0, 1).toUpperCase()}
                </span>
                <span className="grow">
                  {p.name}
                  {p.clientId === user ? ' (you)' : ''}
                </span>
                {connected && p.typing && <span className="muted small">typing…</span>}
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
          {import.meta.env.DEV && (
            <>
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
                <button type="button" onClick={() => void dev('flood')} data-testid="flood">
                  {t.flood}
                </button>
              </div>
            </>
          )}
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
