import { CONVERSATION_STATUSES } from '@tandem/contract'
import type { ConversationStatus } from '@tandem/core'
import { useMutation, useResource, useResources } from '@tandem/react'
import { useResourcePresence } from '@tandem/react/resource-presence'
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { ErrorDetails } from '../lib/ErrorDetails.js'
import { errorField } from '../lib/format.js'
import { useSession } from '../lib/session-context.js'
import { ConversationPresence, LockButton, agentName } from './ConversationPresence.js'
import type { SupportStrings } from './strings.js'
import { ReplyFiles } from './ReplyFiles.js'
import { seenReplyId } from './seen.js'
import { HeldRow, ThreadRow } from './ThreadRows.js'
import { THREAD_PARAMS, useHeldReplies } from './use-held-replies.js'
import { useReplyFiles } from './use-reply-files.js'

interface Props {
  id: string
  agentNames: ReadonlyMap<string, string>
  mailboxNames: ReadonlyMap<string, string>
  strings: SupportStrings
  /** The Close button: the panel goes back to its empty state and puts focus back on the list. */
  onClose(): void
}

export function ConversationView({ id, agentNames, mailboxNames, strings, onClose }: Props) {
  const { user } = useSession()
  const threadsPath = `conversations/${id}/threads` as const
  // Live: a reply or status change made elsewhere patches this item through `support:conversations`.
  const conversation = useResource('support/conversations', id, { live: true })
  const threads = useResources(`support/${threadsPath}`, THREAD_PARAMS)
  const c = conversation.data
  // Who else is on it (viewing, typing, the advisory lock), through the inbox's one presence channel.
  const here = useResourcePresence('support/conversations', id, { name: user })

  // Threads have no channel of their own: when the live item says there are more, fetch them.
  const count = c?.threadCount
  const loaded = threads.items.length
  const { refetch, isFetching } = threads
  // Not while replies of ours wait: each raises the count as it is applied, and lands in the list
  // then (useHeldReplies); a refetch per reply was 100 lists for 100 replies sent after a reload.
  const held = useHeldReplies(id)
  // "Seen" under the last reply the customer has read (its read position comes live with the conversation).
  const seen = seenReplyId(threads.items, c?.customerRead ?? null)
  // Stable: the memoised rows keep their props; an expired file URL fetches the threads again.
  const refreshUrls = useCallback(() => void refetch(), [refetch])
  // The rows change when the list does, not on each render an outbox change causes.
  const rows = useMemo(
    () =>
      threads.items.map((t) => (
        <ThreadRow key={t.id} thread={t} strings={strings} seen={t.id === seen} onExpired={refreshUrls} />
      )),
    [threads.items, strings, seen, refreshUrls],
  )
  const waiting = held.length > 0
  useEffect(() => {
    if (count !== undefined && threads.status === 'success' && !isFetching && !waiting && count > loaded) void refetch()
  }, [count, loaded, isFetching, refetch, threads.status, waiting])

  // Opened: focus goes to its title, so the status buttons and the reply box are the next Tabs.
  const heading = useRef<HTMLHeadingElement>(null)
  const shown = c !== undefined
  useEffect(() => {
    if (shown) heading.current?.focus()
  }, [shown])

  const replyBox = useRef<HTMLTextAreaElement>(null)
  const focusReply = useCallback(() => replyBox.current?.focus(), [])
  const [text, setText] = useState('')
  const [replyStatus, setReplyStatus] = useState<'' | ConversationStatus>('')
  const chosen = useReplyFiles(strings)

  // No optimistic write into the cache: the reply waits in the durable outbox (offline too, across a
  // reload) and shows from there as "sending…" (useHeldReplies); the mutation settles when it is
  // applied or refused, and the next reply can be written meanwhile. The applied reply goes into the
  // threads list without a refetch (useHeldReplies); the conversation's status may have changed with it.
  // Files go with the reply as one durable write: uploaded (resumably) by the outbox, then the reply is sent once.
  const reply = useMutation(
    (v: { text: string; status?: ConversationStatus; files?: File[] }, client) =>
      client.support.conversations.reply(id, v),
    { invalidate: { service: 'support', collection: 'conversations', id } },
  )
  const update = useMutation(
    (status: ConversationStatus, client) => client.support.conversations.update(id, { status }),
    { invalidate: { service: 'support', collection: 'conversations', id } },
  )

  const send = (e: FormEvent) => {
    e.preventDefault()
    const body = text.trim()
    const files = [...chosen.files]
    if (!body && !files.length) return
    reply.mutate({ text: body, ...(replyStatus ? { status: replyStatus } : {}), ...(files.length ? { files } : {}) })
    setText('')
    chosen.clear()
    here.setTyping(false)
    // The Send button is disabled once the box is empty: focus goes back to the box (else the body).
    replyBox.current?.focus()
    setReplyStatus('') // "then: close" is for this reply only: the next one keeps (or, if closed, reopens) the status
  }

  // Another agent's lock warns, it does not block: the lock is advisory.
  const othersLock = here.lock && !here.lock.mine ? here.lock : null
  // A refusal about the text is the reply box's: it says so to a screen reader too.
  const replyRefused = reply.status === 'error' && errorField(reply.error) === 'text'
  // A reply the agent cancelled (its upload) failed as asked: nothing to report.
  const replyFailed = reply.status === 'error' && reply.error?.code !== 'upload_cancelled'

  if (conversation.status === 'error' && !c)
    return <ErrorDetails error={conversation.error} service="support" data-testid="conversation-error" />
  if (!c) return <p className="muted">Loading…</p>

  return (
    <article className="conversation-view" data-testid="conversation-view" data-id={c.id}>
      <header>
        <div className="row title-row">
          <h2 ref={heading} tabIndex={-1} className="grow" dir="auto">
            {c.subject}
          </h2>
          <button type="button" className="close" onClick={onClose} aria-label={strings.closeLabel}>
            {strings.close}
          </button>
        </div>
        <p className="muted small">
          #{c.number} · {c.customer.name ?? ''} &lt;{c.customer.email}&gt; ·{' '}
          {mailboxNames.get(c.mailboxId) ?? c.mailboxId}
          {c.assigneeId ? ` · assigned to ${agentNames.get(c.assigneeId) ?? c.assigneeId}` : ' · unassigned'}
        </p>
        <div className="row">
          <span className={`pill status-${c.status}`} data-testid="conversation-status">
            {c.status}
          </span>
          {c.tags.map((t) => (
            <span key={t} className="tag">
              {t}
            </span>
          ))}
          <span className="grow" />
          <div className="segmented small" role="group" aria-label={strings.setStatus}>
            {CONVERSATION_STATUSES.map((s) => {
              // Closed conversations reopen only through a reply (the service answers 422 otherwise).
              const reopen = c.status === 'closed' && s !== 'closed'
              const inert = update.status === 'pending' || c.status === s || reopen
              return (
                // aria-disabled, not disabled: a disabled button loses focus, and the one just
                // pressed becomes the current status, so focus fell to the body.
                <button
                  key={s}
                  type="button"
                  aria-pressed={c.status === s}
                  aria-disabled={inert}
                  title={reopen ? strings.reopenByReply : undefined}
                  onClick={() => void (inert || update.mutate(s))}
                >
                  {s}
                </button>
              )
            })}
          </div>
        </div>
        {update.status === 'error' && (
          <ErrorDetails error={update.error} service="support" data-testid="status-error" />
        )}
        <ConversationPresence
          here={here}
          strings={strings}
          customer={c.customer.name ?? c.customer.email ?? strings.theCustomer}
        />
      </header>

      <ol className="threads" data-testid="threads">
        {rows}
        {held.map((h) => (
          <HeldRow
            key={h.id}
            id={h.id}
            writeKey={h.key}
            user={user}
            text={h.text}
            files={h.files}
            lastError={h.lastError}
            strings={strings}
            onCancelled={focusReply}
          />
        ))}
        {threads.status === 'pending' && <li className="muted">Loading threads…</li>}
      </ol>

      <form className="reply" onSubmit={send} {...chosen.drop} data-testid="reply-form">
        <label className="sr-only" htmlFor="reply-text">
          Reply
        </label>
        <textarea
          id="reply-text"
          ref={replyBox}
          rows={3}
          placeholder={c.status === 'closed' ? 'A reply reopens the conversation…' : 'Write a reply…'}
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            here.setTyping(e.target.value !== '')
          }}
          // Ctrl+Enter (⌘+Enter) sends and keeps focus here: replies in a row from the keyboard.
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return
            e.preventDefault()
            e.currentTarget.form?.requestSubmit()
          }}
          dir="auto"
          aria-invalid={replyRefused || undefined}
          aria-describedby={replyRefused ? 'reply-error' : othersLock ? 'reply-locked' : undefined}
        />
        <ReplyFiles chosen={chosen} strings={strings} />
        {othersLock && (
          <p className="reply-locked small" id="reply-locked" data-testid="reply-locked">
            {strings.lockedWarning(agentName(othersLock.holder))}
          </p>
        )}
        <div className="row">
          <label className="inline small">
            then{' '}
            <select value={replyStatus} onChange={(e) => setReplyStatus(e.target.value as '' | ConversationStatus)}>
              <option value="">{c.status === 'closed' ? 'reopen (active)' : 'keep status'}</option>
              <option value="pending">set pending</option>
              <option value="closed">close</option>
            </select>
          </label>
          <span className="grow" />
          {replyFailed && (
            <ErrorDetails error={reply.error} service="support" id="reply-error" data-testid="reply-error" />
          )}
          <LockButton here={here} strings={strings} />
          <button type="submit" className="primary" disabled={!text.trim() && !chosen.files.length}>
            Send reply
          </button>
        </div>
      </form>
    </article>
  )
}
