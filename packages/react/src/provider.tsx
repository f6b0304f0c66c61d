import type { LiveSource, TandemClient } from '@tandem/core'
import { useMemo, type ReactNode } from 'react'
import { TandemContext } from './use-tandem.js'

export interface TandemProviderProps {
  client: TandemClient
  /** A `createRealtime(…)` connection, for `useChannel`, `usePresence`, `useConnectionState` and `live` lists. */
  realtime?: LiveSource
  children?: ReactNode
}

/**
 * Makes a client (and optionally a realtime connection) available to the hooks below it.
 *
 * @example
 * ```ts
 * <TandemProvider client={createClient({ auth: { url: '/api/tandem-token' } })} realtime={realtime}>
 *   <App />
 * </TandemProvider>
 * ```
 */
export function TandemProvider({ client, realtime, children }: TandemProviderProps) {
  // A new value only when the client changes, so consumers do not re-render with the provider.
  const value = useMemo(() => ({ client, realtime }), [client, realtime])
  return <TandemContext.Provider value={value}>{children}</TandemContext.Provider>
}
