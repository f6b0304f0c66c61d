import { TandemHydrate } from '@tandem/next'
import { prefetch } from '@tandem/next/server'
import { Suspense } from 'react'
import { conversationQuery } from '../../../lib/queries'
import { serverClient } from '../../../lib/tandem'
import { ConversationHeader } from './conversation-header'
import { Threads } from './threads'

// The conversation at once; its threads streamed after it, in a Suspense boundary with their own
// prefetch and <TandemHydrate>, so a slow thread list does not hold the page back.
export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params
  const state = await prefetch(serverClient(), conversationQuery(id))
  return (
    <>
      <TandemHydrate state={state}>
        <ConversationHeader id={id} />
      </TandemHydrate>
      <Suspense fallback={<p data-testid="threads-loading">Loading the threads…</p>}>
        <Threads id={id} />
      </Suspense>
    </>
  )
}
