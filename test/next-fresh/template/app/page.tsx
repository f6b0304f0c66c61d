import { listQuery } from '@tandem/core'
import { TandemHydrate } from '@tandem/next'
import { prefetch } from '@tandem/next/server'
import { Suspense } from 'react'
import { serverClient } from '@/lib/tandem'
import { Inbox } from './inbox'

export default function Home() {
  return (
    <main>
      <h1>Support inbox</h1>
      {/* What reads the request (the session, the user's data) streams in its own boundary. */}
      <Suspense fallback={<p>Loading the inbox…</p>}>
        <PrefetchedInbox />
      </Suspense>
    </main>
  )
}

async function PrefetchedInbox() {
  // The same params as the hook's: the same cache entry, so the browser sends no request for it.
  const state = await prefetch(await serverClient(), listQuery('support/conversations', { limit: 25 }))
  return (
    <TandemHydrate state={state}>
      <Inbox />
    </TandemHydrate>
  )
}
