import { useOutbox, usePersistStatus } from '@tandem/react/persist'
import { useState } from 'react'
import { useSession } from '../lib/session-context.js'
import { PERSIST_STRINGS, type PersistStrings } from './persist-strings.js'

interface Props {
  strings?: PersistStrings
}

/**
 * "N changes waiting to be sent", politely announced; empty (and invisible) when nothing waits. The
 * live region stays in the page at 0, so the first held write is announced too.
 */
export function OutboxStatus({ strings = PERSIST_STRINGS }: Props) {
  const { entries } = useOutbox(useSession().outbox)
  const n = entries.length
  return (
    <span
      className="outbox-status small"
      role="status"
      aria-live="polite"
      data-testid="outbox-status"
      data-count={n}
      title={n ? strings.waitingTitle : undefined}
    >
      {n ? strings.waiting(n) : ''}
    </span>
  )
}

/** Said once, when storage is full or refused: the user must know closing the tab loses their changes. */
export function StorageNotice({ strings = PERSIST_STRINGS }: Props) {
  const session = useSession()
  const outbox = useOutbox(session.outbox)
  const persister = usePersistStatus(session.persister)
  const [dismissed, setDismissed] = useState(false)
  if (dismissed || (outbox.mode !== 'memory' && persister.mode !== 'memory')) return null
  return (
    <p className="user-notice storage-notice" role="status" data-testid="storage-notice">
      {strings.fallback}{' '}
      <button type="button" className="link" onClick={() => setDismissed(true)}>
        {strings.dismiss}
      </button>
    </p>
  )
}

/**
 * Wipes what is saved for this user (the cache and the held writes) and ends their session in
 * every tab of the user, then starts afresh: the page again without `?user=`, so a new name is picked.
 */
export function LogOutButton({ strings = PERSIST_STRINGS }: Props) {
  const { persister } = useSession()
  const [busy, setBusy] = useState(false)
  const logOut = async () => {
    if (busy) return
    setBusy(true)
    // Ends the saved cache and the outbox it was given (nothing is written after it, not even a write
    // on its way), tells the other tabs, and `cleared` closes the connection (session.ts).
    await persister.clearPersisted()
    location.assign(`${location.pathname}${location.hash}`)
  }
  return (
    <button
      type="button"
      className="small log-out"
      data-testid="log-out"
      title={strings.logOutTitle}
      aria-disabled={busy}
      onClick={() => void logOut()}
    >
      {strings.logOut}
    </button>
  )
}
