import type { Thread } from '@tandem/core'
import { memo } from 'react'
import { dateTime } from '../lib/format.js'
import type { SupportStrings } from './strings.js'

// Rows are memoised: every write the outbox applies re-renders the view, and 100 held replies
// applied one after another re-rendered ~200 rows 100 times (issue 44's persist walk).

/** One thread of the service's list. */
export const ThreadRow = memo(function ThreadRow({ thread: t }: { thread: Thread }) {
  return (
    <li className={`thread thread-${t.type}`} data-testid="thread">
      <div className="thread-head small">
        <strong>{t.author.name ?? t.author.email ?? t.author.id ?? 'someone'}</strong>
        <span className="muted">
          {' '}
          · {t.type === 'customer' ? 'customer' : t.type}
          {' · '}
          {dateTime(t.createdAt)}
        </span>
      </div>
      <div className="thread-text" dir="auto">
        {t.text}
      </div>
    </li>
  )
})

interface HeldRowProps {
  id: string
  user: string
  text: string
  lastError: string | undefined
  strings: SupportStrings
}

/** A reply of ours still in the outbox, marked "sending…". */
export const HeldRow = memo(function HeldRow({ id, user, text, lastError, strings }: HeldRowProps) {
  return (
    <li className="thread thread-reply sending" data-testid="thread" data-held={id}>
      <div className="thread-head small">
        <strong>{user}</strong>
        <span className="muted" title={lastError ? strings.heldBecause(lastError) : undefined}>
          {' '}
          · reply · {strings.sending}
        </span>
      </div>
      <div className="thread-text" dir="auto">
        {text}
      </div>
    </li>
  )
})
