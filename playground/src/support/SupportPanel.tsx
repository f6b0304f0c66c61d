import { PAGE_MAX } from '@tandem/contract'
import type { ConversationStatus } from '@tandem/core'
import { useResources } from '@tandem/react'
import { useCollectionPresence } from '@tandem/react/resource-presence'
import { useEffect, useMemo, useRef, useState } from 'react'
import { PushDeliveries } from '../app/PushDeliveries.js'
import { ErrorDetails } from '../lib/ErrorDetails.js'
import { dateTime } from '../lib/format.js'
import { useSession } from '../lib/session-context.js'
import { useChannelState } from '../lib/use-channel-state.js'
import { ViewerBadge } from './ConversationPresence.js'
import { ConversationView } from './ConversationView.js'
import { NewConversation } from './NewConversation.js'
import { PushControl } from './PushControl.js'
import { SUPPORT_STRINGS, type SupportStrings } from './strings.js'
import './support.css'

const STATUSES: { value: ConversationStatus | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'pending', label: 'Pending' },
  { value: 'closed', label: 'Closed' },
]
const PAGE = 15

/** Where focus goes when what had it goes away: the row of a closed conversation, or the New button. */
type FocusBack = { row: string } | 'new' | null

export function SupportPanel({ strings: overrides }: { strings?: Partial<SupportStrings> } = {}) {
  const strings = useMemo(() => ({ ...SUPPORT_STRINGS, ...overrides }), [overrides])
  const [mailboxId, setMailboxId] = useState<string>()
  const [status, setStatus] = useState<ConversationStatus | 'all'>('all')
  const [selected, setSelected] = useState<string>()
  const [composing, setComposing] = useState(false)
  const { push } = useSession()

  const mailboxes = useResources('support/mailboxes', { limit: 50 }, { staleTime: 60_000 })
  const agents = useResources('support/agents', { limit: PAGE_MAX }, { staleTime: 60_000 })
  const agentNames = useMemo(() => new Map(agents.items.map((a) => [a.id, a.name])), [agents.items])
  const mailboxNames = useMemo(() => new Map(mailboxes.items.map((m) => [m.id, m.name])), [mailboxes.items])

  // Live: the list follows the `support:conversations` channel. A new conversation is
  // prepended to an unfiltered list without a request; a filtered one asks the service again.
  const params = { limit: PAGE, ...(mailboxId ? { mailboxId } : {}), ...(status !== 'all' ? { status } : {}) }
  const list = useResources('support/conversations', params, { live: true, keepPreviousData: true })
  const live = useChannelState('support:conversations')
  // Every row's viewer badge from ONE subscription (the collection's presence channel), not one per row.
  const viewing = useCollectionPresence('support/conversations')

  // Closing the view or the form removes the focused element: focus goes back where the user came
  // from (the conversation's row if the list still shows it, else the list's heading), not to the body.
  const focusBack = useRef<FocusBack>(null)
  const newButton = useRef<HTMLButtonElement>(null)
  const listHeading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    const back = focusBack.current
    if (!back) return
    focusBack.current = null
    const row =
      back === 'new'
        ? newButton.current
        : document.querySelector<HTMLElement>(`[data-testid="conversation"][data-id="${CSS.escape(back.row)}"]`)
    ;(row ?? listHeading.current)?.focus()
  }, [selected, composing])
  const more = list.hasNextPage

  // Load more: focus goes to the first row it brought, so the keyboard reads on from there (and
  // is not lost when the last page makes the button go away).
  const loadedFrom = useRef<number | null>(null)
  const fetchingMore = list.isFetchingNextPage
  useEffect(() => {
    const from = loadedFrom.current
    if (fetchingMore || from === null) return
    loadedFrom.current = null
    document.querySelectorAll<HTMLElement>('[data-testid="conversation"]')[from]?.focus()
  }, [fetchingMore])

  return (
    <div className="support">
      <nav className="support-nav card" aria-label="Mailboxes and filters">
        <h2>Mailboxes</h2>
        <ul className="choices" data-testid="mailboxes">
          <li>
            <button type="button" aria-pressed={!mailboxId} onClick={() => setMailboxId(undefined)}>
              All mailboxes
            </button>
          </li>
          {mailboxes.items.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                aria-pressed={mailboxId === m.id}
                onClick={() => setMailboxId(m.id)}
                title={m.email}
              >
                {m.name}
              </button>
            </li>
          ))}
        </ul>
        {mailboxes.status === 'pending' && <p className="muted small">Loading…</p>}
        <h2>Status</h2>
        <div className="segmented" role="group" aria-label="Status filter">
          {STATUSES.map((s) => (
            <button key={s.value} type="button" aria-pressed={status === s.value} onClick={() => setStatus(s.value)}>
              {s.label}
            </button>
          ))}
        </div>
        <button
          ref={newButton}
          type="button"
          className="new-conv"
          onClick={() => {
            setComposing(true)
            setSelected(undefined)
          }}
        >
          + New conversation
        </button>
        <PushControl push={push} />
        {/* Dev only: compiled out of a production build, like the other dev controls. */}
        {import.meta.env.DEV && <PushDeliveries />}
      </nav>

      <section className="support-list card" aria-label="Conversations">
        <header className="list-head">
          <h2 ref={listHeading} tabIndex={-1}>
            Conversations
          </h2>
          {list.status === 'success' && (
            <span
              className="pill conv-count"
              data-testid="conversation-count"
              title={strings.countTitle(list.items.length, more)}
            >
              {strings.count(list.items.length, more)}
            </span>
          )}
          <span
            className={`live-badge ${live === 'subscribed' ? 'on' : ''}`}
            title="The list follows the support:conversations channel"
            data-testid="live-badge"
          >
            {live === 'subscribed' ? '● live' : `○ ${live}`}
          </span>
          {list.isFetching && !list.isFetchingNextPage && <span className="muted small">refreshing…</span>}
        </header>
        {list.status === 'error' && (
          <ErrorDetails error={list.error} service="support" strings={strings} data-testid="list-error" />
        )}
        {list.status === 'pending' && !list.items.length && <p className="muted">Loading conversations…</p>}
        {list.status === 'success' && !list.items.length && <p className="muted">No conversation matches.</p>}
        <ul className={`conversations ${list.isPlaceholderData ? 'dim' : ''}`} data-testid="conversations">
          {list.items.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className="conversation"
                data-testid="conversation"
                data-id={c.id}
                aria-current={selected === c.id}
                onClick={() => {
                  setSelected(c.id)
                  setComposing(false)
                }}
              >
                <span className="conv-top">
                  <span className="conv-subject" dir="auto">
                    {c.subject}
                  </span>
                  <ViewerBadge viewers={viewing.get(c.id)?.viewers ?? []} strings={strings} />
                  <span className={`pill status-${c.status}`}>{c.status}</span>
                </span>
                {/* The date the list is sorted by comes first, so a narrow row cuts the names, not it. */}
                <span className="conv-meta muted small">
                  <time dateTime={c.modifiedAt}>{dateTime(c.modifiedAt)}</time>
                  <span className="conv-who">
                    · #{c.number} · {c.customer.name ?? c.customer.email} · {mailboxNames.get(c.mailboxId) ?? ''}
                  </span>
                </span>
                <span className="conv-preview small" dir="auto">
                  {c.preview}
                </span>
              </button>
            </li>
          ))}
        </ul>
        <footer className="list-foot">
          <span className="muted small">{strings.shown(list.items.length, more)}</span>
          {list.hasNextPage && (
            // aria-disabled while loading: a disabled button drops the keyboard's focus to the body.
            <button
              type="button"
              aria-disabled={list.isFetchingNextPage}
              onClick={() => {
                if (list.isFetchingNextPage) return
                loadedFrom.current = list.items.length
                void list.fetchNextPage()
              }}
            >
              {list.isFetchingNextPage ? strings.loading : strings.loadMore}
            </button>
          )}
        </footer>
      </section>

      <section className="support-detail card" aria-label="Conversation">
        {composing ? (
          <NewConversation
            mailboxes={mailboxes.items}
            defaultMailboxId={mailboxId}
            onCreated={(c) => {
              setComposing(false)
              setSelected(c.id)
            }}
            onCancel={() => {
              focusBack.current = 'new'
              setComposing(false)
            }}
          />
        ) : selected ? (
          <ConversationView
            key={selected}
            id={selected}
            agentNames={agentNames}
            mailboxNames={mailboxNames}
            strings={strings}
            onClose={() => {
              focusBack.current = { row: selected }
              setSelected(undefined)
            }}
          />
        ) : (
          <div className="empty">
            <p>Pick a conversation to read its threads and reply.</p>
            <p className="muted small">
              The list is live: create a conversation here, in another tab, or through the REST API (
              <code>POST /support/v1/conversations</code>) and it appears without a reload.
            </p>
          </div>
        )}
      </section>
    </div>
  )
}
