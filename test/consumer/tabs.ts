// One connection for all tabs and resume after a reload, from their own entry points, against the built types.
import { createBaseClient } from '@tandem/core/client'
import { createRealtime } from '@tandem/realtime'
import { sessionPositions } from '@tandem/realtime/positions'
import { TABS_DEFAULTS, shareAcrossTabs, type TabRole } from '@tandem/realtime/tabs'

export function sharedRealtime(userId: string): { roles: TabRole[]; close: () => void } {
  const client = createBaseClient({ auth: { url: '/api/tandem-token' } })
  const tabs = shareAcrossTabs({ key: `user:${userId}`, graceMs: TABS_DEFAULTS.leftTabGraceMs })
  const rt = createRealtime({ client }, { tabs, positions: sessionPositions({ key: `tandem:realtime:${userId}` }) })
  const roles: TabRole[] = []
  const off = tabs.on('role', ({ role }) => roles.push(role))
  return {
    roles,
    close: () => {
      off()
      rt.close()
      tabs.stop()
    },
  }
}
