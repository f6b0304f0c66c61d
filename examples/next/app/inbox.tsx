'use client'
import { useResources } from '@tandem/react'
import Link from 'next/link'
import { INBOX_PARAMS } from '../lib/queries'

export function Inbox() {
  // Live: the list's realtime channel patches it; the hydrated page is its first data. A live list
  // is kept current by its channel, so returning to the page does not need to fetch it again.
  const list = useResources('support/conversations', INBOX_PARAMS, { live: true, staleTime: Infinity })
  if (list.status === 'error') return <p role="alert">The inbox could not be loaded.</p>
  return (
    <ul data-testid="inbox">
      {list.items.map((c) => (
        <li key={c.id} data-testid="conversation" data-id={c.id}>
          <Link href={`/conversations/${c.id}`}>{c.subject}</Link> <span className="muted">{c.status}</span>
        </li>
      ))}
    </ul>
  )
}
