import type { Thread } from '@tandem/core'
import { memo } from 'react'
import { dateTime } from '../lib/format.js'
import { Attachments } from './Attachments.js'
import type { HeldFile } from './use-held-replies.js'
import { UploadProgress } from './UploadProgress.js'
import type { SupportStrings } from './strings.js'

// Rows are memoised: every write the outbox applies re-renders the view, and 100 held replies
// applied one after another re-rendered ~200 rows 100 times (issue 44's persist walk).

interface ThreadRowProps {
  thread: Thread
  strings: SupportStrings
  /** The customer has read up to here or later (`customerRead`): "Seen" under this reply. */
  seen: boolean
  /** Its files' signed URLs ran out: fetch the threads again. Stable (the list's refetch). */
  onExpired(): void
}

/** One thread of the service's list. */
export const ThreadRow = memo(function ThreadRow({ thread: t, strings, seen, onExpired }: ThreadRowProps) {
  return (
    <li className={`thread thread-${t.type}`} data-testid="thread" data-thread={t.id}>
      <div className="thread-head small">
        <strong>{t.author.name ?? t.author.email ?? t.author.id ?? 'someone'}</strong>
        <span className="muted">
          {' '}
          · {t.type === 'customer' ? 'customer' : t.type}
          {' · '}
          {dateTime(t.createdAt)}
        </span>
      </div>
      {t.text && (
        <div className="thread-text" dir="auto">
          {t.text}
        </div>
      )}
      <Attachments attachments={t.attachments} strings={strings} onExpired={onExpired} />
      {seen && (
        <div className="seen small muted" data-testid="seen">
          {strings.seen}
        </div>
      )}
    </li>
  )
})

interface HeldRowProps {
  id: string
  /** The outbox entry's idempotency key: its uploads' progress is keyed by it. */
  writeKey: string
  user: string
  text: string
  files: readonly HeldFile[]
  lastError: string | undefined
  strings: SupportStrings
  /** Its upload was cancelled (the row goes): where focus goes. Stable. */
  onCancelled(): void
}

/** A reply of ours still in the outbox, marked "sending…", with its files' progress while they upload. */
export const HeldRow = memo(function HeldRow(props: HeldRowProps) {
  const { id, writeKey, user, text, files, lastError, strings, onCancelled } = props
  return (
    <li className="thread thread-reply sending" data-testid="thread" data-held={id}>
      <div className="thread-head small">
        <strong>{user}</strong>
        <span className="muted" title={lastError ? strings.heldBecause(lastError) : undefined}>
          {' '}
          · reply · {strings.sending}
        </span>
      </div>
      {text && (
        <div className="thread-text" dir="auto">
          {text}
        </div>
      )}
      {files.length > 0 && (
        <UploadProgress writeKey={writeKey} files={files} strings={strings} onCancelled={onCancelled} />
      )}
    </li>
  )
})
