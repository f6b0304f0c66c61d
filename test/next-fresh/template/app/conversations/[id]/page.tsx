import { itemQuery } from '@tandem/core'
import { TandemHydrate } from '@tandem/next'
import { prefetch } from '@tandem/next/server'
import { Suspense } from 'react'
import { serverClient } from '@/lib/tandem'
import { Conversation } from './conversation'

export default function ConversationPage({ params }: PageProps<'/conversations/[id]'>) {
  return (
    <main>
      <Suspense fallback={<p>Loading the conversation…</p>}>
        <PrefetchedConversation params={params} />
      </Suspense>
    </main>
  )
}

async function PrefetchedConversation({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params
  const state = await prefetch(await serverClient(), itemQuery('support/conversations', id))
  return (
    <TandemHydrate state={state}>
      <Conversation id={id} />
    </TandemHydrate>
  )
}
