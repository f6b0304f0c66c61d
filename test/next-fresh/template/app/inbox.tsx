'use client'
import { useResources } from '@tandem/react'
import Link from 'next/link'

export function Inbox() {
  const inbox = useResources('support/conversations', { limit: 25 }, { live: true })
  if (inbox.status === 'error') return <p role="alert">The inbox could not be loaded.</p>
  return (
    <ul>
      {inbox.items.map((c) => (
        <li key={c.id} data-id={c.id}>
          <Link href={`/conversations/${c.id}`}>{c.subject}</Link>
        </li>
      ))}
    </ul>
  )
}
