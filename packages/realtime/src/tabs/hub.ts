// The leading tab's hub: the one WebSocket to the service (through partysocket), shared by the
// sockets of every tab. It relays frames both ways, keeping for each socket what the service
// keeps for a connection: its request ids, its channels, its presence. A service message is posted
// once to the tabs that subscribed its channel; each tab's client dedupes and orders by offset.
import ReconnectingWebSocket from 'partysocket/ws'
import { HANDSHAKE_TIMEOUT_MS, MAX_GRACE_MS, OPEN_TIMEOUT_MS } from '../defaults.js'
import { closeOf } from '../protocol.js'
import type { TabSocket } from './socket.js'
import { HANDOVER_CLOSE, closeReason, type TabMessage } from './wire.js'

/** A tab socket as the hub knows it. */
export interface Peer {
  id: string
  tab: string
  /** Set for a socket of the leader's own tab. */
  local?: TabSocket
  /** Channels its tab is present on. */
  entered: Set<string>
}

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
  /** Calls `gone` once the tab has gone (closed, crashed); an abort of `signal` ends the watch. */
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

type Frame = Record<string, unknown> & { type?: unknown; id?: unknown; channel?: unknown }

interface Link {
  rws: ReconnectingWebSocket
  /** When it was opened. */
  at: number
  open: boolean
  handshaking: boolean
  /** The token the service's connection runs on (the handshake's, then each in-band refresh's). */
  token?: unknown
  /** An in-band refresh on its way: the tabs that asked for the same token wait for its answer. */
  authing?: { token: unknown; waiting: [Peer, unknown][] }
  /** The service's `connected` reply, and when it came. */
  session?: { frame: Frame; at: number }
  /** Tab sockets whose `connect` waits for the handshake. */
  waiting: [Peer, Frame][]
}

/** A tab's client says the link is dead: the hub checks with a ping of its own before dropping it for all. */
const DEAD = new Set(['heartbeat_timeout', 'ping_timeout', 'request_timeout', 'handshake_timeout'])

const parse = (text: unknown): Frame | undefined => {
  try {
    const f = JSON.parse(text as string) as unknown
    return typeof f === 'object' && f !== null && !Array.isArray(f) ? (f as Frame) : undefined
  } catch {
    return undefined
  }
}

export function createHub(o: HubOptions): Hub {
  const peers = new Map<string, Peer>()
  const subs = new Map<string, Set<Peer>>()
  // What waits for the service's reply, by the hub's request id.
  const pending = new Map<number, { peer?: Peer; id?: unknown; then?: (f: Frame) => void }>()
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

  function deliver(to: Iterable<Peer>, text: string) {
    const remote: string[] = []
    for (const p of to)
      if (p.local) p.local.receive(text)
      else remote.push(p.id)
    if (remote.length) o.post({ k: 'down', to: remote, d: text })
  }
  const reply = (p: Peer, frame: Frame) => deliver([p], JSON.stringify(frame))

  function shut(to: Peer[], code: number, reason: string) {
    const remote: string[] = []
    for (const p of to) {
      forget(p)
      if (p.local) p.local.shut(code, reason)
      else remote.push(p.id)
    }
    if (remote.length) o.post({ k: 'shut', to: remote, c: code, r: reason })
  }

  /** Removes a peer; returns the channels nobody else subscribes and those nobody else is present on. */
  function forget(p: Peer): { unsubscribe: string[]; leave: string[] } {
    peers.delete(p.id)
    const unsubscribe: string[] = []
    for (const [name, set] of subs) if (set.delete(p) && set.size === 0 && subs.delete(name)) unsubscribe.push(name)
    const leave = [...p.entered].filter((name) => !present(name))
    return { unsubscribe, leave }
  }
  const present = (name: string) => [...peers.values()].some((q) => q.entered.has(name))

  /** Sends to the service under a fresh id; the reply goes back to `peer` under its own id, or to `then`. */
  function send(frame: Frame, peer?: Peer, then?: (f: Frame) => void) {
    if (!link?.open) return
    const id = nextId++
    pending.set(id, { peer, id: frame.id, then })
    link.rws.send(JSON.stringify({ ...frame, id }))
  }

  function connect(): Link {
    const rws = new ReconnectingWebSocket(o.url, undefined, {
      WebSocket: o.WebSocket,
      // One attempt: the tabs' clients own the backoff, and reconnect through the hub.
      maxRetries: 0,
      maxEnqueuedMessages: 0,
      connectionTimeout: OPEN_TIMEOUT_MS,
    })
    const mine: Link = { rws, at: Date.now(), open: false, handshaking: false, waiting: [] }
    rws.addEventListener('open', () => {
      mine.open = true
      handshake(mine)
    })
    rws.addEventListener('message', (e) => link === mine && fromService(e.data))
    // The service's close reaches every tab as it was sent: each client reads its code.
    rws.addEventListener('close', (e) => link === mine && lost(...closeOf(e, mine.at)))
    return mine
  }

  function lost(code: number, reason: string) {
    clearTimeout(probe)
    const l = link
    link = undefined
    pending.clear()
    shut([...peers.values()], code, reason)
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
    send({ ...frame, resume: resumeId ? { connectionId: resumeId } : frame.resume }, undefined, (answer) => {
      clearTimeout(deadline)
      l.handshaking = false
      if (answer.type === 'connected' && typeof answer.connectionId === 'string') {
        l.session = { frame: answer, at: Date.now() }
        l.token = frame.token
        resumeId = answer.connectionId
        o.post({ k: 'conn', c: answer.connectionId })
        for (const [p, f] of [first, ...l.waiting.splice(0)]) if (peers.has(p.id)) connected(l, p, f)
        const held = orphans.splice(0)
        if (held.length) later(o.graceMs, () => leave(held))
      } else {
        // Refused: that tab hears why (the service closes next); the others wait for that close.
        if (peers.has(peer.id)) reply(peer, { ...answer, id: frame.id })
        handshake(l)
      }
    })
  }

  /** What is left of the connection's token lifetime, in the service's seconds. */
  const remaining = (l: Link) =>
    Math.max(0, (l.session!.frame.expiresIn as number) - Math.floor((Date.now() - l.session!.at) / 1000))

  /** The service's `connected`, for one tab: its presence was kept if it last ran on this very connection. */
  function connected(l: Link, p: Peer, f: Frame) {
    const s = l.session!.frame
    const resume = f.resume as { connectionId?: unknown } | undefined
    const gaveUp = settled.delete(p.tab)
    reply(p, {
      ...s,
      id: f.id,
      expiresIn: remaining(l),
      resumed: !gaveUp && resume?.connectionId === s.connectionId,
    })
  }

  function fromService(data: unknown) {
    const text = typeof data === 'string' ? data : '' // a binary frame: every tab reports it unreadable
    const f = parse(text)
    const id = f?.id
    if (f && f.type !== 'message' && (typeof id === 'number' || typeof id === 'string')) {
      const entry = pending.get(id as number)
      pending.delete(id as number)
      // A refreshed token: tabs that connect later are told its lifetime, not the first one's.
      if (f.type === 'authed' && link?.session)
        link.session = { frame: { ...link.session.frame, expiresIn: f.expiresIn }, at: Date.now() }
      if (entry?.then) return entry.then(f)
      if (entry?.peer && peers.has(entry.peer.id)) reply(entry.peer, { ...f, id: entry.id })
      return
    }
    if (f && (f.type === 'message' || f.type === 'presence.event')) {
      const to = subs.get(f.channel as string)
      if (to) deliver(to, text)
      return
    }
    // Heartbeats, errors for nobody's request, anything unreadable: every tab sees it.
    deliver(peers.values(), text)
  }

  /** Some tab's client found the link dead: a ping decides, within the grace, before all tabs reconnect. */
  function check() {
    if (probe !== undefined || !link?.session) return
    const l = link
    probe = setTimeout(() => {
      probe = undefined
      if (link === l) lost(HANDOVER_CLOSE, closeReason('heartbeat_timeout'))
    }, MAX_GRACE_MS)
    send({ type: 'ping' }, undefined, () => {
      clearTimeout(probe)
      probe = undefined
    })
  }

  /**
   * One in-band refresh per token for all tabs: a tab that brings the token the connection already
   * runs on (another tab refreshed first) is answered here; one that brings the token being
   * refreshed waits for that answer.
   */
  function refresh(p: Peer, f: Frame) {
    const l = link
    if (!l?.session) return
    if (f.token === l.token) return reply(p, { type: 'authed', id: f.id, expiresIn: remaining(l) })
    const under = l.authing
    if (under && under.token === f.token) return void under.waiting.push([p, f.id])
    const authing: NonNullable<Link['authing']> = { token: f.token, waiting: [[p, f.id]] }
    l.authing = authing
    send(f, undefined, (answer) => {
      if (l.authing === authing) l.authing = undefined
      if (answer.type === 'authed') l.token = f.token
      for (const [q, id] of authing.waiting) if (peers.has(q.id)) reply(q, { ...answer, id })
    })
  }

  function up(id: string, text: string) {
    const p = peers.get(id)
    // A socket of a tab that has not heard of this leader yet.
    if (!p) return o.post({ k: 'shut', to: [id], c: HANDOVER_CLOSE, r: closeReason('leader_changed') })
    const f = parse(text)
    if (!f) return
    const channel = f.channel as string
    switch (f.type) {
      case 'connect':
        if (link?.session) return connected(link, p, f)
        link ??= connect()
        link.waiting.push([p, f])
        return handshake(link)
      case 'subscribe':
        for (const e of Array.isArray(f.channels) ? (f.channels as { channel?: unknown }[]) : []) {
          const name = e?.channel
          if (typeof name !== 'string') continue
          const set = subs.get(name) ?? new Set<Peer>()
          subs.set(name, set.add(p))
        }
        return send(f, p)
      case 'unsubscribe': {
        const names = Array.isArray(f.channels) ? f.channels.filter((n): n is string => typeof n === 'string') : []
        // Only the channels no other tab wants leave the service's connection.
        const last = names.filter((n) => {
          const set = subs.get(n)
          return set?.delete(p) && set.size === 0 && subs.delete(n)
        })
        reply(p, { type: 'unsubscribed', id: f.id, channels: names })
        if (last.length) send({ type: 'unsubscribe', channels: last })
        return
      }
      case 'presence.enter':
      case 'presence.update':
        p.entered.add(channel)
        return send(f, p)
      case 'auth':
        return refresh(p, f)
      case 'presence.leave':
        p.entered.delete(channel)
        // The member is the connection's: it stays while another tab is present.
        if (present(channel)) return reply(p, { type: 'ok', id: f.id })
        return send(f, p)
      default:
        return send(f, p)
    }
  }

  /** Leaves, on the service's connection, the channels no tab is present on (any more). */
  function leave(channels: string[]) {
    for (const channel of channels) if (!present(channel)) send({ type: 'presence.leave', channel })
  }

  /** Unsubscribes, on the service's connection, the channels no tab subscribes (any more). */
  const unsubscribe = (channels: string[]) => {
    const unused = channels.filter((c) => !subs.has(c))
    if (unused.length) send({ type: 'unsubscribe', channels: unused })
    return unused
  }

  function closed(id: string, reason: string) {
    const p = peers.get(id)
    if (!p) return
    const { unsubscribe: unwanted, leave: absent } = forget(p)
    // A client that closes has sent its own leaves. Any other end (a dropped socket, a tab that
    // left, reloaded or died) keeps the tab's channels and presence through a grace, as the
    // service does for a socket: its client comes back and resumes them. After the grace, what
    // no tab wants is let go, and the tab, if it comes back, is told to enter again.
    if (reason === 'client_close') unsubscribe(unwanted)
    else if (unwanted.length || absent.length)
      later(o.graceMs, () => {
        if ([...peers.values()].some((q) => q.tab === p.tab)) return // it came back
        leave(absent)
        if (unsubscribe(unwanted).length || absent.length) settled.add(p.tab)
      })
    if (DEAD.has(reason)) check()
    if (!peers.size && link) lost(1000, 'client_close')
  }

  return {
    open(peer) {
      peers.set(peer.id, peer)
      if (peer.local || tabs.has(peer.tab)) return
      tabs.add(peer.tab)
      o.watch(peer.tab, () => {
        tabs.delete(peer.tab)
        for (const p of [...peers.values()]) if (p.tab === peer.tab) closed(p.id, 'tab_gone')
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
      shut([...peers.values()], HANDOVER_CLOSE, closeReason('leader_gone'))
      // A close without leaves: the service keeps the presence through its grace, for the next leader's resume.
      l?.rws.close(1000, 'leader_gone')
    },
    stats: () => ({ peers: peers.size, channels: subs.size, tabs: tabs.size, pending: pending.size + timers.size }),
  }
}
