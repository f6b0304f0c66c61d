import { createContext, useContext } from 'react'
import type { Session } from './session.js'

export const SessionContext = createContext<Session | null>(null)

/** This tab's user name, client, realtime connection and event log. */
export function useSession(): Session {
  const s = useContext(SessionContext)
  if (!s) throw new Error('useSession: no <SessionContext.Provider> here')
  return s
}
