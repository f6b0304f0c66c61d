'use client'
import { useResources } from '@tandem/react'
import { THREAD_PARAMS } from '../../../lib/queries'

export function ThreadList({ id }: { id: string }) {
  const threads = useResources(`support/conversations/${id}/threads`, THREAD_PARAMS)
  if (threads.status === 'error') return <p role="alert">The threads could not be loaded.</p>
  return (
    <section aria-label="Threads">
      <h2>Threads</h2>
      <ol data-testid="threads">
        {threads.items.map((t) => (
          <li key={t.id} data-testid="thread">
            <span className="muted">{t.type}</span> {t.author.name ?? t.author.type}: {t.text}
          </li>
        ))}
      </ol>
    </section>
  )
}
