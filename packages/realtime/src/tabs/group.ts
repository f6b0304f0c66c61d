// One tab in its group: the role reducer's effects carried out, and the other tabs' messages read.
// The role changes only through the share's `move` (role.ts decides, this file acts).
import type { TabsContext } from '../realtime.js'
import { createElection, openBus, type Bus, type Election } from '../core.js'
import { createHub, type Hub } from './hub.js'
import type { BroadcastChannelConstructor, LockManagerLike } from './platform.js'
import { createPresence } from './presence.js'
import { createRelay, type Relay } from './relay.js'
import type { RoleEffect, RoleEvent, RoleState } from './role.js'
import { createTokenAsks, serveToken, type TokenAsks } from './token.js'
import { parseTabMessage, type TabMessage, type TabMessageOf } from './wire.js'

export interface GroupOptions {
  ctx: TabsContext
  tab: string
  name: string
  locks: LockManagerLike
  BroadcastChannel: BroadcastChannelConstructor
  WebSocket: unknown
  graceMs: number
  random: () => string
  state: () => RoleState
  move: (event: RoleEvent) => void
}

export interface Group {
  readonly relay: Relay
  readonly asks: TokenAsks
  run(effect: RoleEffect): void
  hub(): Hub | undefined
}

export function createGroup(o: GroupOptions): Group {
  const { ctx, tab, name, move } = o
  let hub: Hub | undefined
  let bus: Bus<TabMessage> | undefined
  let election: Election | undefined
  /** The service's connection id the tabs last ran on, for the next leader's resume. */
  let connectionId: string | undefined
  const post = (m: TabMessage) => void bus?.post(m)
  const asks = createTokenAsks(post, o.random)
  const presence = createPresence(tab, post)
  const relay = createRelay({ tab, post, joined: () => bus !== undefined, hub: () => hub, presence })
  const serve = (ask: string, stale: string | undefined, answer: (m: TabMessageOf<'tokened'>) => void) =>
    void serveToken(ctx.auth, ask, stale).then(answer)

  function run(effect: RoleEffect) {
    switch (effect) {
      case 'join':
        bus = openBus(name, parseTabMessage, receive, o.BroadcastChannel)
        election = createElection({ locks: o.locks, name, tab, won: () => move({ type: 'won', tab }) })
        return post({ type: 'who' })
      case 'lead':
        hub = createHub({
          url: ctx.url,
          WebSocket: o.WebSocket,
          post,
          resumeId: connectionId,
          orphans: presence.orphans(),
          graceMs: o.graceMs,
          watch: (other, gone) => election?.watch(other, gone),
        })
        post({ type: 'leader', leader: tab })
        relay.follow(tab, 'leader_changed')
        return asks.resend((ask, stale) => serve(ask, stale, asks.answer))
      case 'follow':
        relay.follow(o.state().leader, 'leader_changed')
        return asks.resend()
      case 'orphan':
        return relay.follow(undefined, 'leader_gone')
      case 'resign':
        // Its presence is the next leader's to settle (orphans).
        post({ type: 'bye', leader: tab })
        hub?.stop()
        hub = undefined
        return
      case 'withdraw':
        // Its presence is the leader's hub's to settle.
        presence.announce(true)
        return relay.withdraw()
      case 'part':
        relay.shutAll('tab_left')
        election?.stop()
        bus?.close()
        bus = undefined
    }
  }

  function receive(m: TabMessage) {
    switch (m.type) {
      case 'who':
        if (presence.entered.size) presence.announce()
        if (hub) post({ type: 'leader', leader: tab })
        return
      case 'present':
        return presence.heard(m)
      case 'leader':
        presence.led(m.leader)
        return move({ type: 'heard', leader: m.leader })
      case 'bye':
        return move({ type: 'bye', leader: m.leader })
      case 'opened':
      case 'down':
      case 'shut':
        return relay.receive(m)
      case 'conn':
        connectionId = m.connectionId
        return
      case 'tokened':
        return asks.answer(m)
    }
    // The rest is for the leader's hub.
    if (!hub) return
    switch (m.type) {
      case 'open':
        hub.open({ id: m.socket, tab: m.tab, entered: new Set(m.entered) })
        return post({ type: 'opened', socket: m.socket, leader: tab })
      case 'up':
        return hub.up(m.socket, m.data)
      case 'close':
        return hub.closed(m.socket, m.reason)
      case 'token':
        return serve(m.ask, m.stale, post)
    }
  }

  return { relay, asks, run, hub: () => hub }
}
