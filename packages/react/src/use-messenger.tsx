import { DEV } from '@tandem/contract/dev'
import { TandemError } from '@tandem/core'
import type { Messenger } from '@tandem/core/messenger'
import { createContext, useContext, type ReactNode } from 'react'

const MessengerContext = createContext<Messenger | null>(null)

export interface MessengerProviderProps {
  /** `messenger(client, { realtime })` of @tandem/core/messenger, made once (not on each render). */
  messenger: Messenger
  children?: ReactNode
}

/**
 * Makes a customer's messenger available to the hooks of @tandem/react/messenger below it.
 *
 * @example
 * ```tsx
 * const desk = messenger(client, { realtime })
 * <MessengerProvider messenger={desk}><Inbox /></MessengerProvider>
 * ```
 */
export function MessengerProvider({ messenger, children }: MessengerProviderProps) {
  return <MessengerContext.Provider value={messenger}>{children}</MessengerContext.Provider>
}

/** The messenger of the nearest `<MessengerProvider>`. */
export function useMessenger(): Messenger {
  const value = useContext(MessengerContext)
  if (!value)
    throw new TandemError(
      DEV && process.env.NODE_ENV !== 'production'
        ? 'No messenger here: wrap your app in <MessengerProvider messenger={messenger(client)}>'
        : 'useMessenger: no_provider',
      { code: 'no_provider' },
    )
  return value
}
