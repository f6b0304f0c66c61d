import type { TabShare } from '@tandem/realtime/tabs'
import { useSyncExternalStore } from 'react'
import { useSession } from '../lib/session-context.js'

/** A tab id as people read it: its last four characters. */
const short = (id: string) => `tab …${id.slice(-4)}`

function describe(tabs: TabShare): string {
  switch (tabs.role) {
    case 'leader':
      return `Shared by this user's tabs: this tab (${short(tabs.tabId)}) leads and holds the socket`
    case 'follower':
      return `Shared by this user's tabs: ${tabs.leader ? short(tabs.leader) : 'another tab'} leads; this tab is ${short(tabs.tabId)}`
    case 'alone':
      return 'This browser cannot share it (no Web Locks): this tab has its own socket'
    default:
      return `Shared by this user's tabs: ${tabs.role}`
  }
}

/** Which tab holds the connection this tab uses (`shareAcrossTabs`). */
export function TabRole() {
  const { tabs } = useSession()
  const text = useSyncExternalStore(
    (changed) => tabs.on('role', changed),
    () => describe(tabs),
  )
  return (
    <p className="small muted" data-testid="tab-role" data-role={tabs.role}>
      {text}
    </p>
  )
}
