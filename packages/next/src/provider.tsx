'use client'
import { DEV } from '@tandem/contract/dev'
import { AuthError, createClient, type ClientOptions, type TandemClient } from '@tandem/core'
import { createRealtime, type Realtime, type RealtimeOptions } from '@tandem/realtime'
import { TandemProvider } from '@tandem/react'
import { useState, type ReactNode } from 'react'

export interface TandemNextProviderProps {
  /**
   * What `createClient` of `@tandem/core` takes. From a server component (the root layout), only
   * what can cross into a client component: `{ baseUrl, auth: { url: '/api/tandem-token' } }`.
   */
  clientOptions: ClientOptions
  /** Given (`{}` for the defaults): a `createRealtime({ client }, realtimeOptions)` connection for the live hooks. */
  realtimeOptions?: RealtimeOptions
  children?: ReactNode
}

/**
 * The server renders client components too, but it is not the user's browser: it has no session
 * cookie to send the token route, and a relative `auth.url` has no page to resolve against. Its
 * copy of the client gets a token source that refuses, so nothing there fetches with it: the data
 * of the server's HTML comes from `prefetch` in a server component, through `<TandemHydrate>`.
 */
function onThisSide(options: ClientOptions): ClientOptions {
  if (typeof window !== 'undefined' || !('url' in options.auth)) return options
  const refuse = () =>
    Promise.reject(
      new AuthError(
        DEV && process.env.NODE_ENV !== 'production'
          ? 'No token while the server renders client components: prefetch in a server component (prefetch of @tandem/next/server) and pass the state to <TandemHydrate>'
          : 'no_token_on_server',
        { code: 'no_token_on_server' },
      ),
    )
  return { ...options, auth: { fetchToken: refuse } }
}

/**
 * One client (and realtime connection, with `realtimeOptions`) per page, for the hooks of
 * `@tandem/react` below it. A client component: render it in the root layout, a server component.
 * Safe on the server: it opens no socket there (realtime connects on first use, in an effect).
 *
 * @example
 * ```tsx
 * // app/layout.tsx
 * <TandemNextProvider clientOptions={{ auth: { url: '/api/tandem-token' } }} realtimeOptions={{}}>
 *   {children}
 * </TandemNextProvider>
 * ```
 */
export function TandemNextProvider({ clientOptions, realtimeOptions, children }: TandemNextProviderProps) {
  // Once per mounted provider: a new options object from a re-render keeps the same client and cache.
  const [{ client, realtime }] = useState((): { client: TandemClient; realtime: Realtime | undefined } => {
    const client = createClient(onThisSide(clientOptions))
    return { client, realtime: realtimeOptions && createRealtime({ client }, realtimeOptions) }
  })
  return (
    <TandemProvider client={client} realtime={realtime}>
      {children}
    </TandemProvider>
  )
}
