'use client'
import { useResource } from '@tandem/react'
import Link from 'next/link'

export function Conversation({ id }: { id: string }) {
  const conversation = useResource('support/conversations', id, { live: true })
  const c = conversation.data
  return (
    <article>
      <Link href="/">← Inbox</Link>
      <h1>{c?.subject ?? 'Loading…'}</h1>
      {c && (
        <p>
          {c.status} · {c.customer.name ?? c.customer.email}
        </p>
      )}
    </article>
  )
}
