// A service that never answers the handshake must not hold every tab on its socket: the hub
// gives that socket up after the handshake timeout (10 s, real time: this file takes ~14 s), and
// the tabs connect on a new one.
import { during } from '../../../../../test/utils/wait.js'
import { afterEach, expect, it } from 'vitest'
import { HANDSHAKE_TIMEOUT_MS } from '../../defaults.js'
import { shareAcrossTabs, type TabShare } from '../../tabs.js'
import { untilState } from '../helpers.js'
import { connected, hostileClient, hostileServer } from '../hostile-server.js'
import { createBrowser } from './tab-env.js'

const shares: TabShare[] = []
afterEach(() => {
  for (const s of shares.splice(0)) s.stop()
})

it(
  'a handshake the service never answers: a new socket after the timeout, and every tab connects on it',
  async () => {
    // The first socket is half-open: it takes the connect and never answers.
    const server = await hostileServer({ connect: (p, f) => p.n > 1 && connected(p, f) })
    const browser = createBrowser()
    const tabs = [0, 1].map(() => {
      const tab = browser.tab()
      const share = shareAcrossTabs({ key: 'k', locks: tab.locks, BroadcastChannel: tab.BroadcastChannel })
      shares.push(share)
      return hostileClient(server, { tabs: share, backoff: { baseMs: 20, capMs: 200 } })
    })
    // Staggered, so the two tabs' own handshake timeouts never leave the hub without a tab at
    // once (which would close the socket anyway): only the hub's own deadline can free them.
    tabs[0]!.connect()
    await during(3_000)
    tabs[1]!.connect()
    await Promise.all(tabs.map((rt) => untilState(rt, 'connected', HANDSHAKE_TIMEOUT_MS + 5_000)))
    expect(server.connections.length).toBe(2)
    expect(tabs.map((rt) => rt.connectionId)).toEqual(['conn_2', 'conn_2'])
  },
  HANDSHAKE_TIMEOUT_MS + 10_000,
)
