// @tandem/next from its two entries, against the built types: the client components, and the
// server side (a server client, prefetch, the token route as App Router route handlers).
import { listQuery, type DehydratedState, type TandemClient } from '@tandem/core'
import { TandemHydrate, TandemNextProvider, type TandemHydrateProps } from '@tandem/next'
import { createServerClient, prefetch, tokenRoute, type TokenRoute } from '@tandem/next/server'
import type { ReactNode } from 'react'

const key = { appId: 'app_1', keyId: 'key_1', secret: 'not-a-secret' }

export const { GET, POST }: TokenRoute = tokenRoute({
  ...key,
  authorize: (request) => (request.headers.has('cookie') ? { subject: 'ada', scope: ['support'] } : null),
})

export function serverClient(): TandemClient {
  return createServerClient({ baseUrl: 'http://127.0.0.1:8787', mint: key, subject: 'ada', scope: 'support' })
}

export async function Inbox({ children }: { children: ReactNode }) {
  const state: DehydratedState = await prefetch(serverClient(), listQuery('support/conversations', { limit: 25 }))
  const props: TandemHydrateProps = { state, children }
  return <TandemHydrate {...props} />
}

export const Layout = ({ children }: { children: ReactNode }) => (
  <TandemNextProvider clientOptions={{ auth: { url: '/api/tandem-token' } }} realtimeOptions={{}}>
    {children}
  </TandemNextProvider>
)
