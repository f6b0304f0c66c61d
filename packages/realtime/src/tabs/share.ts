// One realtime connection for all the tabs of an app (docs/realtime.md, "One connection for all
// tabs"). Tabs with the same key elect a leader with a Web Lock (election.ts); the leader's hub
// (hub.ts) holds the only WebSocket. Every tab's client, the leader's included, talks to the hub
// through a TabSocket (relay.ts), so a handover is a reconnect like any other: each client resumes
// its channels from its own last delivered position, resends what it has not had acked (same
// idempotency keys), and its presence is kept (the next leader resumes the service's connection id).
// The tab's role comes from one pure reducer (role.ts), moved here only.
import { DEV } from '@tandem/contract/dev'
import type { Unsubscribe } from '@tandem/core'
import { ValidationError, createEmitter } from '../core.js'
import type { TabsContext, TabsLink } from '../realtime.js'
import { TABS_DEFAULTS } from './defaults.js'
import { createGroup, type Group } from './group.js'
import type { HubStats } from './hub.js'
import { watchLifecycle } from './page-lifecycle.js'
import type { BroadcastChannelConstructor, LockManagerLike } from './platform.js'
import { transition, type RoleEvent, type RoleState, type TabRole } from './role.js'
import { tabSocketClass } from './socket.js'
import { createTabAuth } from './tab-auth.js'

export type { BroadcastChannelConstructor, BroadcastChannelLike, LockManagerLike } from './platform.js'
export type { HubStats } from './hub.js'
export type { TabRole } from './role.js'
export { TABS_DEFAULTS } from './defaults.js'

export interface ShareOptions {
  /**
   * Which tabs share one connection: those of this origin with the same key and realtime URL. Put
   * the signed-in user's id in it: followers get their tokens from the leader, so tabs of two users
   * must never have the same key.
   */
  key: string
  /** @default globalThis.navigator.locks (without it, each tab keeps a socket of its own) */
  locks?: LockManagerLike
  /** @default globalThis.BroadcastChannel (likewise) */
  BroadcastChannel?: BroadcastChannelConstructor
  /**
   * How long a tab that went away (closed, reloaded, its socket dropped) keeps its channels and
   * presence on the shared connection: a reloaded page that enters again within it causes no leave.
   * @default TABS_DEFAULTS.leftTabGraceMs (5 s)
   */
  graceMs?: number
}

export interface RoleChange {
  role: TabRole
  /** The leading tab's id, when one is known. */
  leader: string | undefined
}

export interface TabShare {
  /** What `createRealtime`'s `tabs` option calls, once per client. */
  (context: TabsContext): TabsLink | undefined
  /** This tab's id (random, per page). */
  readonly tabId: string
  /** The key it was made with: which shared connection this tab is in (devtools show it). */
  readonly key: string
  readonly role: TabRole
  readonly leader: string | undefined
  on(event: 'role', callback: (change: RoleChange) => void): Unsubscribe
  /** Leaves for good (the next tab leads); a page leaves by itself when hidden, and comes back when shown. */
  stop(): void
  /** On the leader: the hub's counts (open tab sockets, channels, tabs watched). */
  stats(): HubStats | undefined
}

const randomId = (): string => crypto.getRandomValues(new Uint32Array(2)).join('')

/**
 * One WebSocket for every tab of this app and user, for `createRealtime(source, { tabs: shareAcrossTabs({ key }) })`.
 *
 * @example
 * ```ts
 * import { createRealtime } from '@tandem/realtime'
 * import { shareAcrossTabs } from '@tandem/realtime/tabs'
 *
 * const tabs = shareAcrossTabs({ key: `user:${userId}` })
 * const rt = createRealtime({ client }, { tabs })
 * tabs.on('role', ({ role }) => console.log(`this tab is ${role}`))
 * ```
 */
export function shareAcrossTabs(options: ShareOptions): TabShare {
  const { key } = options ?? {}
  if (typeof key !== 'string' || key === '')
    throw new ValidationError(
      'key',
      DEV && process.env.NODE_ENV !== 'production' && 'must name the user whose tabs share',
    )
  const tabId = randomId()
  const events = createEmitter<{ role: (change: RoleChange) => void }>()
  let state: RoleState = { role: 'electing', leader: undefined }
  let group: Group | undefined
  /** `stop()` was called: this tab does not come back. */
  let stopped = false
  /** Leaves for good, page listeners and all (set once a client has made its link). */
  let leave: (() => void) | undefined

  function move(event: RoleEvent) {
    const was = state
    const step = transition(was, event)
    if (step.illegal) {
      // Development builds say which (role, event) pair was ignored.
      if (DEV && process.env.NODE_ENV !== 'production') console.debug(`[tandem:tabs] ${was.role} ignores ${event.type}`)
      return
    }
    state = { role: step.role, leader: step.leader }
    for (const effect of step.effects) group?.run(effect)
    if (state.role !== was.role || state.leader !== was.leader) events.emit('role', { ...state })
  }

  const share = ((ctx: TabsContext): TabsLink | undefined => {
    if (group || state.role === 'alone')
      throw new ValidationError(
        'tabs',
        DEV && process.env.NODE_ENV !== 'production' && 'one shareAcrossTabs() per client',
      )
    const g = globalThis as {
      navigator?: { locks?: LockManagerLike }
      BroadcastChannel?: BroadcastChannelConstructor
      WebSocket?: unknown
    }
    const locks = options.locks ?? g.navigator?.locks
    const BroadcastChannel = options.BroadcastChannel ?? g.BroadcastChannel
    const WebSocket = ctx.WebSocket ?? g.WebSocket
    if (!locks || !BroadcastChannel || !WebSocket) {
      move({ type: 'unsupported' })
      return undefined
    }
    const joined = (group = createGroup({
      ctx,
      tab: tabId,
      name: `tandem:tabs:${ctx.url}:${key}`,
      locks,
      BroadcastChannel,
      WebSocket,
      graceMs: options.graceMs ?? TABS_DEFAULTS.leftTabGraceMs,
      random: randomId,
      state: () => state,
      move,
    }))
    const unwatch = watchLifecycle({ hide: () => move({ type: 'leave' }), show: () => move({ type: 'back' }) })
    leave = () => {
      move({ type: 'leave' })
      unwatch()
    }
    if (!stopped) move({ type: 'start' })
    const auth = createTabAuth({
      own: ctx.auth,
      asks: joined.asks,
      leading: () => state.role === 'leader',
      stopped: () => stopped,
    })
    return { WebSocket: tabSocketClass(joined.relay.link, tabId), auth }
  }) as TabShare

  Object.defineProperties(share, {
    tabId: { value: tabId },
    key: { value: key },
    role: { get: () => state.role },
    leader: { get: () => state.leader },
  })
  share.on = events.on
  share.stop = () => {
    stopped = true
    leave?.()
  }
  share.stats = () => group?.hub()?.stats()
  return share
}
