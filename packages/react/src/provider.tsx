import { DEV } from '@tandem/contract/dev'
import { TandemError, getCache, type Client, type LiveSource, type TandemClient } from '@tandem/core'
import { useMemo, type ReactNode } from 'react'
import { TandemContext } from './use-tandem.js'

export interface TandemProviderProps {
  /** `createClient` of `@tandem/core` (every service), or `createBaseClient` of `@tandem/core/client` (modular). */
  client: Client
  /** A `createRealtime(…)` connection, for `useChannel`, `usePresence`, `useConnectionState` and `live` lists. */
  realtime?: LiveSource
  children?: ReactNode
}

const SERVICES = new Map([
  ['maps', 'maps'],
  ['support', 'support'],
  ['realtime', 'realtime-rest'],
  ['collection', 'client'],
])

/**
 * A modular client as the hooks' `client`: reading a service it does not carry fails with a
 * `TandemError` that says what to import, instead of an `undefined` that fails later.
 */
function forHooks(client: Client): TandemClient {
  if ('maps' in client) return client as TandemClient
  return new Proxy(client, {
    get(target, name, receiver) {
      const entry = typeof name === 'string' ? SERVICES.get(name) : undefined
      if (entry && !(name in target))
        throw new TandemError(
          DEV && process.env.NODE_ENV !== 'production'
            ? `client.${String(name)}: this client is modular (@tandem/core/client); call ${name === 'realtime' ? 'realtimeRest' : String(name)}(client) from @tandem/core/${entry}`
            : `client.${String(name)}: modular_client`,
          { code: 'modular_client' },
        )
      return Reflect.get(target, name, receiver) as unknown
    },
  }) as TandemClient
}

/**
 * Makes a client (and optionally a realtime connection) available to the hooks below it. The
 * resource cache is the client's (`getCache(client)`), created here on first use.
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
  const value = useMemo(() => ({ client: forHooks(client), cache: getCache(client), realtime }), [client, realtime])
  return <TandemContext.Provider value={value}>{children}</TandemContext.Provider>
}
