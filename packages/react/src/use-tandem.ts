import { DEV } from '@tandem/contract/dev'
import { TandemError, type LiveSource, type ResourceCache, type TandemClient } from '@tandem/core'
import { createContext, useContext } from 'react'

export interface TandemContextValue {
  /** The provider's client; with a modular client, a service it lacks throws `modular_client`. */
  client: TandemClient
  /** The client's resource cache (`getCache(client)`). */
  cache: ResourceCache
  /** Set when `<TandemProvider realtime={…}>` was given one; the realtime hooks need it. */
  realtime: LiveSource | undefined
}

export const TandemContext = createContext<TandemContextValue | null>(null)

/** The client (and realtime connection) of the nearest `<TandemProvider>`. */
export function useTandem(): TandemContextValue {
  const value = useContext(TandemContext)
  if (!value)
    throw new TandemError(
      DEV && process.env.NODE_ENV !== 'production'
        ? 'No Tandem client here: wrap your app in <TandemProvider client={createClient(…)}>'
        : 'useTandem: no_provider',
      { code: 'no_provider' },
    )
  return value
}
