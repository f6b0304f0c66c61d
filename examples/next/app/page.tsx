import { TandemHydrate } from '@tandem/next'
import { prefetch } from '@tandem/next/server'
import { inboxQuery } from '../lib/queries'
import { serverClient } from '../lib/tandem'
import { Inbox } from './inbox'

// The inbox: fetched on the server (in the HTML), then live in the browser without a second request.
export default async function InboxPage() {
  const state = await prefetch(serverClient(), inboxQuery())
  return (
    <>
      <h1>Support inbox</h1>
      <TandemHydrate state={state}>
        <Inbox />
      </TandemHydrate>
    </>
  )
}
