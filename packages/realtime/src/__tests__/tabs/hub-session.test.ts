// The in-band token refresh of a shared connection, on a hand-written server that says every
// token expires in a second: the tabs refresh again and again, and the connection is re-authed
// once per token, with one fetch per refresh, whatever the number of tabs.
import { afterEach, expect, it } from 'vitest'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { shareAcrossTabs, type TabShare } from '../../tabs.js'
import { untilState } from '../helpers.js'
import { connected, hostileClient, hostileServer } from '../hostile-server.js'
import { createBrowser } from './tab-env.js'

const shares: TabShare[] = []
afterEach(() => {
  for (const s of shares.splice(0)) s.stop()
})

it('three tabs re-auth the one connection once per token, and only the leader fetches', async () => {
  const server = await hostileServer({
    connect: (p, f) => connected(p, f, { expiresIn: 1 }),
    request: (p, f) => {
      if (f.type === 'auth') p.send({ type: 'authed', id: f.id, expiresIn: 1 })
    },
  })
  const browser = createBrowser()
  const tabs = [0, 1, 2].map(() => {
    const tab = browser.tab()
    const share = shareAcrossTabs({ key: 'k', locks: tab.locks, BroadcastChannel: tab.BroadcastChannel })
    shares.push(share)
    return hostileClient(server, { tabs: share, backoff: { baseMs: 20, capMs: 200 } })
  })
  for (const rt of tabs) rt.connect()
  await Promise.all(tabs.map((rt) => untilState(rt, 'connected')))
  const auths = () => server.frames.filter((f) => f.type === 'auth').map((f) => f.token)
  await waitUntil(() => auths().length >= 3, { timeoutMs: 8_000, what: `3 refreshes (have ${auths().length})` })
  // Every tab refreshed (each asked for a new token), yet no token reached the service twice.
  expect(new Set(auths()).size).toBe(auths().length)
  expect(server.connections.length).toBe(1)
  const fetches = tabs.map((rt) => rt.stats.tokens)
  expect(fetches.filter((n) => n > 0).length).toBe(1) // only the leader's provider
  expect(Math.max(...fetches)).toBeLessThanOrEqual(auths().length + 2) // about one fetch per refresh, not one per tab
})
