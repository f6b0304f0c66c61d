'use client'
import { useResource } from '@tandem/react'
import Link from 'next/link'

export function ConversationHeader({ id }: { id: string }) {
  // Live: a reply or a status change made elsewhere patches it through `support:conversations`.
  const conversation = useResource('support/conversations', id, { live: true })
  const c = conversation.data
  return (
    <header>
      <p>
        <Link href="/">← Back to the inbox</Link>
      </p>
      <h1 data-testid="conversation-subject">{c?.subject ?? 'Loading…'}</h1>
      {c && (
        <p className="muted">
          {c.status} · {c.customer.name ?? c.customer.email} · {c.threadCount} threads
        </p>
      )}
    </header>
  )
}
