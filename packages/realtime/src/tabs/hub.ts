// The leading tab's hub: the one WebSocket to the service (through partysocket), shared by the
// sockets of every tab. It relays frames both ways, keeping for each socket what the service
// keeps for a connection: its request ids, its channels, its presence. A service message is posted
// once to the tabs that subscribed its channel; each tab's client dedupes and orders by offset.
// Frames are parsed both ways: the service's by the client's own check (`parseFrame`), the tabs'
// into the contract's client frames (client-frame.ts).
import { HANDSHAKE_TIMEOUT_MS, MAX_GRACE_MS, MAX_INBOUND_CHARS } from '../defaults.js'
import { closeOf, parseFrame } from '../connection/protocol.js'
import { parseClientFrame } from './client-frame.js'
import { openLink, type ConnectFrame, type Id, type Link, type Outgoing, type Pending } from './hub-link.js'
import { createPeers, type Peer } from './hub-peers.js'
import { connectedFor, refresh } from './hub-session.js'
import { HANDOVER_CLOSE, closeReason, type TabMessage } from './wire.js'

export type { Peer } from './hub-peers.js'

export interface HubOptions {
  url: string
  WebSocket: unknown
  post: (message: TabMessage) => void
  /** The service's connection id the tabs last ran on: resumed, so presence is kept. */
  resumeId: string | undefined
  /**
   * Channels where only the tab that led before was present: the resumed connection still holds
   * its member there, and nobody is left to leave it. Left a grace after connecting, unless a tab
   * (that one, reloaded) entered meanwhile.
   */
  orphans: string[]
  /** How long a tab that went away keeps its channels and presence (it may come back). */
  graceMs: number
  /** Calls `gone` once the tab has gone (closed, crashed). */
  watch: (tab: string, gone: () => void) => void
}

export interface HubStats {
  /** Open tab sockets, subscribed channels, tabs watched, requests awaiting the service (and leaves awaiting their grace). */
  peers: number
  channels: number
  tabs: number
  pending: number
}

export interface Hub {
  open(peer: Peer): void
  up(id: string, text: string): void
  closed(id: string, reason: string): void
  stop(): void
  stats(): HubStats
}

/** A tab's client says the link is dead: the hub checks with a ping of its own before dropping it for all. */
const DEAD = new Set(['heartbeat_timeout', 'ping_timeout', 'request_timeout', 'handshake_timeout'])

export function createHub(o: HubOptions): Hub {
  const peers = createPeers(o.post)
  const { byId, deliver, reply, present } = peers
  const pending = new Map<Id, Pending>()
  const tabs = new Set<string>()
  let link: Link | undefined
  let nextId = 1
  let resumeId = o.resumeId
  let probe: ReturnType<typeof setTimeout> | undefined
  const orphans = [...o.orphans]
  /** Tabs whose channels or presence the hub gave up while they were away: told `resumed: false`, they enter again. */
  const settled = new Set<string>()
  const timers = new Set<ReturnType<typeof setTimeout>>()
  const later = (ms: number, run: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t)
      run()
    }, ms)
    timers.add(t)
  }

  /** Sends to the service under a fresh id; the reply goes where `to` says. */
  function send(frame: Outgoing, to: Pending = {}) {
    if (!link?.open) return
    const id = nextId++
    pending.set(id, to)
    link.rws.send(JSON.stringify({ ...frame, id }))
  }

  function connect(): Link {
    const mine = openLink(o.url, o.WebSocket, {
      open() {
        mine.open = true
        handshake(mine)
      },
      message: (data) => link === mine && fromService(data),
      // The service's close reaches every tab as it was sent: each client reads its code.
      close: (e) => link === mine && lost(...closeOf(e, mine.at)),
    })
    return mine
  }

  function lost(code: number, reason: string) {
    clearTimeout(probe)
    const l = link
    link = undefined
    pending.clear()
    peers.shut([...byId.values()], code, reason)
    l?.rws.close(1000, reason)
  }

  /** The first waiting `connect` goes to the service, resuming the connection the tabs last ran on. */
  function handshake(l: Link) {
    if (l !== link || !l.open || l.handshaking || l.session) return
    const first = l.waiting.shift()
    if (!first) return
    const [peer, frame] = first
    l.handshaking = true
    // A service that never answers must not hold every tab: each would retry onto this socket.
    const deadline = setTimeout(
      () => link === l && lost(HANDOVER_CLOSE, closeReason('handshake_timeout')),
      HANDSHAKE_TIMEOUT_MS,
    )
    const resume = resumeId ? { connectionId: resumeId } : frame.resume
    send(
      { ...frame, resume },
      {
        then(answer) {
          clearTimeout(deadline)
          l.handshaking = false
          if (answer.type === 'connected') {
            l.session = { frame: answer, at: Date.now() }
            l.token = frame.token
            resumeId = answer.connectionId
            o.post({ type: 'conn', connectionId: answer.connectionId })
            for (const [p, f] of [first, ...l.waiting.splice(0)]) if (byId.has(p.id)) connected(l, p, f)
            const held = orphans.splice(0)
            if (held.length) later(o.graceMs, () => leave(held))
          } else {
            // Refused: that tab hears why (the service closes next); the others wait for that close.
            if (byId.has(peer.id)) reply(peer, { ...answer, id: frame.id })
            handshake(l)
          }
        },
      },
    )
  }

  /** The service's `connected`, for one tab (told `resumed: false` if the hub gave up its presence). */
  const connected = (l: Link, p: Peer, f: ConnectFrame) => reply(p, connectedFor(l.session!, f, settled.delete(p.tab)))

  function fromService(data: unknown) {
    const text = typeof data === 'string' ? data : '' // a binary frame: every tab reports it unreadable
    const f = parseFrame(data, MAX_INBOUND_CHARS)
    if (f instanceof Error) return deliver(byId.values(), text) // every tab's client reports it
    if (f.type !== 'message' && f.id !== undefined) {
      const to = pending.get(f.id)
      pending.delete(f.id)
      // A refreshed token: tabs that connect later are told its lifetime, not the first one's.
      if (f.type === 'authed' && link?.session)
        link.session = { frame: { ...link.session.frame, expiresIn: f.expiresIn }, at: Date.now() }
      if (to?.then) return to.then(f)
      if (to?.peer && byId.has(to.peer.id)) reply(to.peer, { ...f, id: to.id })
      return
    }
    if (f.type === 'message' || f.type === 'presence.event') {
      const to = peers.subs.get(f.channel)
      if (to) deliver(to, text)
      return
    }
    // Heartbeats, errors for nobody's request: every tab sees it.
    deliver(byId.values(), text)
  }

  /** Some tab's client found the link dead: a ping decides, within the grace, before all tabs reconnect. */
  function check() {
    if (probe !== undefined || !link?.session) return
    const l = link
    probe = setTimeout(() => {
      probe = undefined
      if (link === l) lost(HANDOVER_CLOSE, closeReason('heartbeat_timeout'))
    }, MAX_GRACE_MS)
    const answered = () => {
      clearTimeout(probe)
      probe = undefined
    }
    send({ type: 'ping' }, { then: answered })
  }

  function up(id: string, text: string) {
    const p = byId.get(id)
    // A socket of a tab that has not heard of this leader yet.
    if (!p) return o.post({ type: 'shut', to: [id], code: HANDOVER_CLOSE, reason: closeReason('leader_changed') })
    // Our own clients send only the contract's frames: anything else is a bug, not for the service.
    const f = parseClientFrame(text)
    if (!f) return
    const to = { peer: p, id: f.id }
    switch (f.type) {
      case 'connect':
        if (link?.session) return connected(link, p, f)
        link ??= connect()
        link.waiting.push([p, f])
        return handshake(link)
      case 'subscribe':
        peers.subscribe(
          p,
          f.channels.map((e) => e.channel),
        )
        return send(f, to)
      case 'unsubscribe': {
        // Only the channels no other tab wants leave the service's connection.
        const last = peers.unsubscribe(p, f.channels)
        reply(p, { type: 'unsubscribed', id: f.id, channels: f.channels })
        if (last.length) send({ type: 'unsubscribe', channels: last })
        return
      }
      case 'presence.enter':
      case 'presence.update':
        p.entered.add(f.channel)
        return send(f, to)
      case 'auth':
        return refresh(link, p, f, { send, reply, alive: (q: Peer) => byId.has(q.id) })
      case 'presence.leave':
        p.entered.delete(f.channel)
        // The member is the connection's: it stays while another tab is present.
        if (present(f.channel)) return reply(p, { type: 'ok', id: f.id })
        return send(f, to)
      default:
        return send(f, to)
    }
  }

  /** Leaves, on the service's connection, the channels no tab is present on (any more). */
  function leave(channels: string[]) {
    for (const channel of channels) if (!present(channel)) send({ type: 'presence.leave', channel })
  }

  /** Unsubscribes, on the service's connection, the channels no tab subscribes (any more). */
  const unsubscribe = (channels: string[]) => {
    const unused = channels.filter((c) => !peers.subs.has(c))
    if (unused.length) send({ type: 'unsubscribe', channels: unused })
    return unused
  }

  function closed(id: string, reason: string) {
    const p = byId.get(id)
    if (!p) return
    const { unsubscribe: unwanted, leave: absent } = peers.forget(p)
    // A client that closes has sent its own leaves. Any other end (a dropped socket, a tab that
    // left, reloaded or died) keeps the tab's channels and presence through a grace, as the
    // service does for a socket: its client comes back and resumes them. After the grace, what
    // no tab wants is let go, and the tab, if it comes back, is told to enter again.
    if (reason === 'client_close') unsubscribe(unwanted)
    else if (unwanted.length || absent.length)
      later(o.graceMs, () => {
        if ([...byId.values()].some((q) => q.tab === p.tab)) return // it came back
        leave(absent)
        if (unsubscribe(unwanted).length || absent.length) settled.add(p.tab)
      })
    if (DEAD.has(reason)) check()
    if (!byId.size && link) lost(1000, 'client_close')
  }

  return {
    open(peer) {
      byId.set(peer.id, peer)
      if (peer.local || tabs.has(peer.tab)) return
      tabs.add(peer.tab)
      o.watch(peer.tab, () => {
        tabs.delete(peer.tab)
        for (const p of [...byId.values()]) if (p.tab === peer.tab) closed(p.id, 'tab_gone')
      })
    },
    up,
    closed,
    stop() {
      const l = link
      link = undefined
      clearTimeout(probe)
      for (const t of timers) clearTimeout(t)
      timers.clear()
      pending.clear()
      peers.shut([...byId.values()], HANDOVER_CLOSE, closeReason('leader_gone'))
      // A close without leaves: the service keeps the presence through its grace, for the next leader's resume.
      l?.rws.close(1000, 'leader_gone')
    },
    stats: () => ({
      peers: byId.size,
      channels: peers.subs.size,
      tabs: tabs.size,
      pending: pending.size + timers.size,
    }),
  }
}
