// The hub's table of tab sockets ("peers"): which channels each subscribes and is present on, and
// how a frame or a close reaches them (in this tab directly, in another through one post).
import type { TabSocket } from './socket.js'
import type { TabMessage } from './wire.js'

/** A tab socket as the hub knows it. */
export interface Peer {
  id: string
  tab: string
  /** Set for a socket of the leader's own tab. */
  local?: TabSocket
  /** Channels its tab is present on. */
  entered: Set<string>
}

export interface Peers {
  readonly byId: Map<string, Peer>
  /** Subscribers by channel. */
  readonly subs: Map<string, Set<Peer>>
  deliver: (to: Iterable<Peer>, text: string) => void
  /** Sends `frame` (the service's, or the hub's answer in its place) to one peer. */
  reply: (peer: Peer, frame: object) => void
  /** Forgets these peers and closes their sockets. */
  shut(to: Peer[], code: number, reason: string): void
  /** Removes a peer; returns the channels nobody else subscribes and those nobody else is present on. */
  forget(peer: Peer): { unsubscribe: string[]; leave: string[] }
  /** Whether any peer's tab is present on `channel`. */
  present: (channel: string) => boolean
  subscribe(peer: Peer, channels: string[]): void
  /** Returns those of `channels` nobody subscribes any more. */
  unsubscribe(peer: Peer, channels: string[]): string[]
}

export function createPeers(post: (m: TabMessage) => void): Peers {
  const byId = new Map<string, Peer>()
  const subs = new Map<string, Set<Peer>>()

  /** Runs `local` for this tab's peers, and returns the ids of the others. */
  function split(to: Iterable<Peer>, local: (s: TabSocket) => void): string[] {
    const remote: string[] = []
    for (const p of to)
      if (p.local) local(p.local)
      else remote.push(p.id)
    return remote
  }

  const unsubscribe = (p: Peer, channels: Iterable<string>) =>
    [...channels].filter((name) => {
      const set = subs.get(name)
      return set?.delete(p) && set.size === 0 && subs.delete(name)
    })

  const self: Peers = {
    byId,
    subs,
    deliver(to, text) {
      const remote = split(to, (s) => s.receive(text))
      if (remote.length) post({ type: 'down', to: remote, data: text })
    },
    reply: (p, frame) => self.deliver([p], JSON.stringify(frame)),
    shut(to, code, reason) {
      for (const p of to) self.forget(p)
      const remote = split(to, (s) => s.shut(code, reason))
      if (remote.length) post({ type: 'shut', to: remote, code, reason })
    },
    forget(p) {
      byId.delete(p.id)
      return { unsubscribe: unsubscribe(p, [...subs.keys()]), leave: [...p.entered].filter((c) => !self.present(c)) }
    },
    present: (channel) => [...byId.values()].some((q) => q.entered.has(channel)),
    subscribe(p, channels) {
      for (const name of channels) subs.set(name, (subs.get(name) ?? new Set<Peer>()).add(p))
    },
    unsubscribe,
  }
  return self
}
