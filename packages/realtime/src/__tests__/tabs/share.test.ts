// One connection for all tabs, in Node: tabs are clients with their own Web Locks view and
// BroadcastChannel (tab-env.ts), against the emulator over real WebSockets. The same scenarios
// run in real Chromium pages in playground/e2e/tabs.test.ts.
import { afterEach, describe, expect, it } from 'vitest'
import { until, waitUntil } from '../../../../../test/utils/wait.js'
import { shareAcrossTabs, type TabShare, type TabsContext } from '../../tabs.js'
import type { Message, PresenceEvent, PublishAck } from '../../types.js'
import { client, collect, untilState, untilSubscribed, useEmulator } from '../helpers.js'
import { createBrowser, type Tab } from './tab-env.js'
import { history } from '../../history.js'
import { presence } from '../../presence/presence.js'

const emu = useEmulator({ realtime: { publishRate: { limit: 10_000, intervalMs: 1000 }, heartbeatMs: 300 } })
const shares: TabShare[] = []
afterEach(() => {
  for (const s of shares.splice(0)) s.stop()
})

interface TabSetup {
  key?: string
  subject?: string
  graceMs?: number
  /** While `on`, nothing reaches the tab's client: its page stalls. */
  frozen?: { on: boolean }
}

function openTab(browser: ReturnType<typeof createBrowser>, setup: TabSetup = {}) {
  const { key = 'user_1', subject = 'user_1', graceMs, frozen } = setup
  const tab = browser.tab()
  const share = shareAcrossTabs({ key, locks: tab.locks, BroadcastChannel: tab.BroadcastChannel, graceMs })
  shares.push(share)
  // The tab socket, wrapped only to stall its deliveries when the test freezes the page.
  const tabs = (ctx: TabsContext) => {
    const link = share(ctx)
    if (!link || !frozen) return link
    const Base = link.WebSocket as new (url: string) => { receive(d: string): void }
    const WebSocket = class extends Base {
      override receive(d: string) {
        if (!frozen.on) super.receive(d)
      }
    }
    return { ...link, WebSocket }
  }
  const rt = client(emu(), { subject }, { tabs })
  return { tab, share, rt, crash: () => crash(tab, share, rt) }
}

/** What a killed renderer does: its locks go free and its channel silent, with no goodbye; its socket closes. */
function crash(tab: Tab, share: TabShare, rt: { close(): void }) {
  tab.crash()
  share.stop()
  rt.close()
}

const openSockets = () => emu().realtime.stats.connections.open
const untilSockets = (n: number, timeoutMs = 5_000) =>
  waitUntil(() => openSockets() === n, { timeoutMs, what: `${n} open sockets (have ${openSockets()})` })

const offsets = (ms: Message[]) => ms.map((m) => m.offset)
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

describe('one connection for all tabs', () => {
  it('three tabs of one user run on one socket; a follower publishes and every tab receives', async () => {
    await untilSockets(0)
    const browser = createBrowser()
    const tabs = [openTab(browser), openTab(browser), openTab(browser)]
    const got = tabs.map((t) => collect(t.rt, 'room:one'))
    await Promise.all(tabs.map((t) => untilSubscribed(t.rt.channel('room:one'))))
    expect(openSockets()).toBe(1)
    expect(tabs.map((t) => t.share.role).sort()).toEqual(['follower', 'follower', 'leader'])
    const follower = tabs.find((t) => t.share.role === 'follower')!
    const ack = await follower.rt.channel('room:one').publish('m', { n: 1 })
    await Promise.all(got.map((g) => g.count(1)))
    for (const g of got) expect(g.messages.map((m) => [m.offset, m.data])).toEqual([[ack.offset, { n: 1 }]])
    // Followers asked the leader for tokens: only the leader's provider fetched.
    expect(tabs.map((t) => t.rt.stats.tokens).sort()).toEqual([0, 0, 1])
    const leader = tabs.find((t) => t.share.role === 'leader')!
    expect(leader.share.stats()).toMatchObject({ peers: 3, channels: 1, tabs: 2 })
  })

  it('tabs of two users (two keys) never share a socket', async () => {
    await untilSockets(0)
    const browser = createBrowser()
    const a = openTab(browser, { key: 'user_a', subject: 'user_a' })
    const b = openTab(browser, { key: 'user_b', subject: 'user_b' })
    a.rt.connect()
    b.rt.connect()
    await Promise.all([untilState(a.rt, 'connected'), untilState(b.rt, 'connected')])
    expect([a.share.role, b.share.role]).toEqual(['leader', 'leader'])
    expect(openSockets()).toBe(2)
    expect(a.rt.connectionId).not.toBe(b.rt.connectionId)
  })

  it('the leader crashes mid-stream: another tab leads, the others get every message once, in order, and 50 follower publishes are stored once', async () => {
    await untilSockets(0)
    const browser = createBrowser()
    const tabs = [openTab(browser), openTab(browser), openTab(browser)]
    const names = Array.from({ length: 10 }, (_, i) => `stream:${i}`)
    const got = tabs.map((t) => names.map((n) => collect(t.rt, n)))
    await Promise.all(tabs.flatMap((t) => names.map((n) => untilSubscribed(t.rt.channel(n)))))
    const leader = tabs.find((t) => t.share.role === 'leader')!
    const followers = tabs.filter((t) => t !== leader)
    const pub = client(emu(), { subject: 'publisher' })
    const PER = 60
    let sent = 0
    // 50 publishes from the followers: 25 in flight when the leader dies (sent to its hub, maybe
    // stored, never acked), 25 issued while the next leader takes over.
    const publish = (from: number) =>
      Array.from({ length: 25 }, (_, k) => followers[k % 2]!.rt.channel('handover:pubs').publish('p', { i: from + k }))
    let inFlight: Promise<unknown>[] = []
    const stream = (async () => {
      for (let i = 0; i < PER; i++) {
        await Promise.all(names.map((n) => pub.channel(n).publish('tick', { i })))
        if (++sent === PER / 3) {
          inFlight = publish(0)
          leader.crash()
        }
      }
    })()
    await until(
      (cb) => leader.share.on('role', cb),
      () => leader.share.role === 'stopped',
      10_000,
      'the crash',
    )
    const acks = Promise.all([...inFlight, ...publish(25)]) as Promise<PublishAck[]>
    await stream
    const followerGot = tabs.map((t, i) => (t === leader ? undefined : got[i]!)).filter((g) => g !== undefined)
    await Promise.all(followerGot.flatMap((g) => g.map((c) => c.count(PER, 10_000))))
    for (const g of followerGot) for (const c of g) expect(offsets(c.messages)).toEqual(oneTo(PER))
    expect(followers.map((f) => f.share.role).sort()).toEqual(['follower', 'leader'])
    const stored = await acks
    expect(new Set(stored.map((a) => a.offset)).size).toBe(50)
    const page = await history(pub.channel('handover:pubs'), { limit: 1000 })
    expect(page.messages.map((m) => (m.data as { i: number }).i).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    )
    await untilSockets(2) // the new leader's and the publisher's
  })

  it('presence survives the handover: the same member, no leave', async () => {
    await untilSockets(0)
    const browser = createBrowser()
    const tabs = [openTab(browser), openTab(browser)]
    const watcher = client(emu(), { subject: 'watcher' })
    const seen: PresenceEvent[] = []
    presence(watcher.channel('room:p')).subscribe((e) => seen.push(e))
    await untilSubscribed(watcher.channel('room:p'))
    tabs[0]!.rt.connect()
    await untilState(tabs[0]!.rt, 'connected')
    tabs[1]!.rt.connect()
    await untilState(tabs[1]!.rt, 'connected')
    const leader = tabs.find((t) => t.share.role === 'leader')!
    const follower = tabs.find((t) => t !== leader)!
    await presence(follower.rt.channel('room:p')).enter({ mood: 'ok' })
    await waitUntil(() => seen.length === 1, { what: 'the enter' })
    const before = await presence(watcher.channel('room:p')).get()
    leader.crash()
    await until(
      (cb) => follower.share.on('role', cb),
      () => follower.share.role === 'leader',
      5_000,
      'new leader',
    )
    await untilState(follower.rt, 'connected')
    await untilSubscribed(follower.rt.channel('room:p'))
    // A round trip after the resume: anything the service said meanwhile has arrived.
    await follower.rt.channel('room:p').publish('m', {})
    expect(seen.map((e) => e.action)).toEqual(['enter'])
    expect(await presence(watcher.channel('room:p')).get()).toEqual(before)
  })

  it('without Web Locks a tab keeps a socket of its own', async () => {
    await untilSockets(0)
    const share = shareAcrossTabs({ key: 'k', locks: undefined, BroadcastChannel: undefined })
    shares.push(share)
    expect((globalThis.navigator as { locks?: unknown } | undefined)?.locks).toBeUndefined() // Node 20 has none
    const rt = client(emu(), {}, { tabs: share })
    rt.connect()
    await untilState(rt, 'connected')
    expect(share.role).toBe('alone')
    expect(openSockets()).toBe(1)
  })

  it('refuses a missing key', () => {
    expect(() => shareAcrossTabs({ key: '' })).toThrow(/key/)
  })

  it('a leading tab that was present goes: its member is left after the grace, once (nobody else held it)', async () => {
    await untilSockets(0)
    const browser = createBrowser()
    const watcher = client(emu(), { subject: 'watcher' })
    const seen: string[] = []
    presence(watcher.channel('room:gone')).subscribe((e) => seen.push(e.action))
    await untilSubscribed(watcher.channel('room:gone'))
    const a = openTab(browser, { graceMs: 200 })
    a.rt.connect()
    await untilState(a.rt, 'connected')
    const b = openTab(browser, { graceMs: 200 })
    collect(b.rt, 'room:gone')
    await untilSubscribed(b.rt.channel('room:gone'))
    expect(a.share.role).toBe('leader')
    await presence(a.rt.channel('room:gone')).enter({ who: 'a' })
    await waitUntil(() => seen.length === 1, { what: 'the enter' })
    a.crash()
    await waitUntil(() => seen.length === 2, { what: 'the leave', timeoutMs: 5_000 })
    expect(seen).toEqual(['enter', 'leave'])
    expect(await presence(watcher.channel('room:gone')).get()).toEqual([])
  })

  it("a follower whose page stalls (its client drops the link) keeps its presence, and the hub's socket is not cycled", async () => {
    await untilSockets(0)
    const browser = createBrowser()
    const watcher = client(emu(), { subject: 'watcher' })
    const seen: string[] = []
    presence(watcher.channel('room:stall')).subscribe((e) => seen.push(e.action))
    await untilSubscribed(watcher.channel('room:stall'))
    const leader = openTab(browser)
    leader.rt.connect()
    await untilState(leader.rt, 'connected')
    const frozen = { on: false }
    const f = openTab(browser, { frozen })
    f.rt.connect()
    await untilState(f.rt, 'connected')
    await presence(f.rt.channel('room:stall')).enter({ who: 'f' })
    await waitUntil(() => seen.length === 1, { what: 'the enter' })
    const socketsBefore = emu().realtime.stats.connections.total
    frozen.on = true
    await untilState(f.rt, 'reconnecting', 5_000)
    expect(f.rt.lastError?.code).toBe('heartbeat_timeout')
    frozen.on = false
    await untilState(f.rt, 'connected')
    await untilSubscribed(f.rt.channel('room:stall'))
    await f.rt.channel('room:stall').publish('m', {}) // a round trip: what the service said meanwhile has come
    expect(seen).toEqual(['enter'])
    expect((await presence(watcher.channel('room:stall')).get()).map((m) => m.data)).toEqual([{ who: 'f' }])
    expect(emu().realtime.stats.connections.total).toBe(socketsBefore) // the hub's ping found the link alive
  })

  it('a tab socket closed before the leader answered leaves nothing in the hub; the last client closing closes the socket', async () => {
    await untilSockets(0)
    const browser = createBrowser()
    const a = openTab(browser)
    a.rt.connect()
    await untilState(a.rt, 'connected')
    const b = openTab(browser)
    b.rt.connect()
    b.rt.close() // before its tab socket's open was answered
    await waitUntil(() => a.share.stats()?.peers === 1, { what: `1 peer (${JSON.stringify(a.share.stats())})` })
    a.rt.close()
    await untilSockets(0)
    expect(a.share.stats()).toMatchObject({ peers: 0, channels: 0 })
  })

  it('a tab that stopped sharing fails its client at once with the reason, instead of retrying', async () => {
    const browser = createBrowser()
    const t = openTab(browser)
    t.rt.connect()
    await untilState(t.rt, 'connected')
    t.share.stop()
    await untilState(t.rt, 'failed')
    expect(t.rt.lastError?.code).toBe('tabs_stopped')
    expect(t.share.role).toBe('stopped')
  })
})
