// This tab's sockets and the leader they run on: the leader's hub when this tab leads, else the
// BroadcastChannel to it. Every tab's client talks through a TabSocket, so a handover is a
// reconnect like any other.
import { parseClientFrame } from './client-frame.js'
import { TABS_DEFAULTS } from './defaults.js'
import type { Hub } from './hub.js'
import type { TabPresence } from './presence.js'
import type { SocketLink, TabSocket } from './socket.js'
import { HANDOVER_CLOSE, closeReason, type TabMessage, type TabMessageOf } from './wire.js'

export interface RelayOptions {
  tab: string
  post: (m: TabMessage) => void
  /** Whether this tab is in the group (its page has not left). */
  joined: () => boolean
  /** The hub, while this tab leads. */
  hub: () => Hub | undefined
  presence: TabPresence
}

export interface Relay {
  link: SocketLink
  /** Closes the sockets not on `leader`, with `why`, and offers the waiting ones to it. */
  follow(leader: string | undefined, why: string): void
  /** A message for this tab's sockets: the leader's `opened`, `down` or `shut`. */
  receive(m: TabMessageOf<'opened' | 'down' | 'shut'>): void
  /** This tab leaves while another leads: that leader forgets the sockets it serves here. */
  withdraw(): void
  /** Closes every socket of this tab, with `why`. */
  shutAll(why: string): void
}

const handover = (s: TabSocket, why: string) => s.shut(HANDOVER_CLOSE, closeReason(why))

export function createRelay({ tab, post, joined, hub, presence }: RelayOptions): Relay {
  const sockets = new Map<string, TabSocket>()

  /** Opens a socket on the hub: this tab's, or the leader's through the channel. */
  function open(s: TabSocket) {
    const h = hub()
    if (h) {
      h.open({ id: s.id, tab, local: s, entered: new Set(presence.entered) })
      return s.opened(tab)
    }
    post({ type: 'open', socket: s.id, tab, entered: [...presence.entered] })
    clearTimeout(s.timer)
    s.timer = setTimeout(() => {
      post({ type: 'close', socket: s.id, reason: 'no_leader' }) // a leader that answers late forgets it
      handover(s, 'no_leader')
    }, TABS_DEFAULTS.openWaitMs)
  }

  const link: SocketLink = {
    attach(s) {
      sockets.set(s.id, s)
      if (joined()) open(s)
      else handover(s, 'tabs_stopped')
    },
    up(s, text) {
      if (text.includes('"presence.')) {
        const f = parseClientFrame(text)
        if (f) presence.track(f)
      }
      if (s.leader === tab) hub()?.up(s.id, text)
      else post({ type: 'up', socket: s.id, data: text })
    },
    closed(s, reason) {
      sockets.delete(s.id)
      if (s.leader === tab) hub()?.closed(s.id, reason)
      else post({ type: 'close', socket: s.id, reason }) // opened, or asked to be: either way the leader forgets it
    },
    forget: (s) => sockets.delete(s.id),
  }

  return {
    link,
    follow(leader, why) {
      for (const s of [...sockets.values()]) {
        if (s.leader === undefined) {
          if (leader) open(s)
        } else if (s.leader !== leader) handover(s, why)
      }
    },
    receive(m) {
      if (m.type === 'opened') {
        const s = sockets.get(m.socket)
        if (s) return s.opened(m.leader)
        // Ours, but closed before the answer came: the leader must forget it.
        if (m.socket.startsWith(`${tab}:`)) post({ type: 'close', socket: m.socket, reason: 'gone' })
        return
      }
      for (const id of m.to) {
        const s = sockets.get(id)
        if (m.type === 'down') s?.receive(m.data)
        else s?.shut(m.code, m.reason)
      }
    },
    withdraw() {
      for (const s of sockets.values()) if (s.leader) post({ type: 'close', socket: s.id, reason: 'tab_left' })
    },
    shutAll(why) {
      for (const s of [...sockets.values()]) handover(s, why)
    },
  }
}
