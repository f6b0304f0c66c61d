// One realtime connection for all the tabs of an app (docs/realtime.md, "One connection for all
// tabs"). Tabs with the same key elect a leader with a Web Lock; the leader's hub holds the only
// WebSocket. Every tab's client, the leader's included, talks to the hub through a TabSocket, so
// a handover is a reconnect like any other: each client resumes its channels from its own last
// delivered position, resends what it has not had acked (same idempotency keys), and its
// presence is kept (the next leader resumes the service's connection id).
import type { TokenProvider, Unsubscribe } from '@tandem/core'
import { ValidationError, createEmitter } from '../core.js'
import { rtError } from '../protocol.js'
import type { TabsContext, TabsLink } from '../realtime.js'
import { createHub, type Hub, type HubStats } from './hub.js'
import { tabSocketClass, type SocketLink, type TabSocket } from './socket.js'
import { createTokenAsks, serveToken } from './token.js'
import {
  HANDOVER_CLOSE,
  TABS_DEFAULTS,
  closeReason,
  type BroadcastChannelConstructor,
  type BroadcastChannelLike,
  type LockManagerLike,
  type TabMessage,
} from './wire.js'

export type { BroadcastChannelConstructor, BroadcastChannelLike, LockManagerLike } from './wire.js'
export type { HubStats } from './hub.js'

export { TABS_DEFAULTS } from './wire.js'

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

/**
 * `electing`: waiting to hear of a leader; `alone`: this runtime cannot share (no Web Locks or no
 * BroadcastChannel), so the tab has a socket of its own; `stopped`: left (page hidden, `stop()`).
 */
export type TabRole = 'electing' | 'leader' | 'follower' | 'alone' | 'stopped'

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
  if (typeof key !== 'string' || key === '') throw new ValidationError('key', 'must name the user whose tabs share')
  const tabId = randomId()
  const events = createEmitter<{ role: (change: RoleChange) => void }>()
  let role: TabRole = 'electing'
  let leader: string | undefined
  let hub: Hub | undefined
  let used = false
  let stopped = false
  /** Leaves for good, page listeners and all (set once a client has made its link). */
  let leave: (() => void) | undefined
  let told: string | undefined

  /** Says when the role or the leader changed. */
  function setRole(next: TabRole) {
    if (next === role && leader === told) return
    role = next
    told = leader
    events.emit('role', { role, leader })
  }

  const share = ((ctx: TabsContext): TabsLink | undefined => {
    if (used) throw new ValidationError('tabs', 'one shareAcrossTabs() per client')
    used = true
    const g = globalThis as {
      navigator?: { locks?: LockManagerLike }
      BroadcastChannel?: BroadcastChannelConstructor
      WebSocket?: unknown
    }
    const locks = options.locks ?? g.navigator?.locks
    const BC = options.BroadcastChannel ?? g.BroadcastChannel
    const WS = ctx.WebSocket ?? g.WebSocket
    if (!locks || !BC || !WS) {
      setRole('alone')
      return undefined
    }
    const name = `tandem:tabs:${ctx.url}:${key}`
    const sockets = new Map<string, TabSocket>()
    /** Channels this tab is present on (from the frames its client sends), told to each leader. */
    const entered = new Set<string>()
    /** What the other tabs are present on, as they said: the next leader leaves what only a departed leader held. */
    const present = new Map<string, string[]>()
    /** The tab that led last (kept after its `bye`). */
    let former: string | undefined
    let connectionId: string | undefined
    let bc: BroadcastChannelLike | undefined
    let abort: AbortController | undefined
    const release: (() => void)[] = []
    const post = (m: TabMessage) => bc?.postMessage(m)
    const asks = createTokenAsks(post, randomId)

    /** Opens a socket on the hub: this tab's, or the leader's through the channel. */
    function open(s: TabSocket) {
      if (role === 'leader' && hub) {
        hub.open({ id: s.id, tab: tabId, local: s, entered: new Set(entered) })
        return s.opened(tabId)
      }
      post({ k: 'open', s: s.id, t: tabId, e: [...entered] })
      clearTimeout(s.timer)
      s.timer = setTimeout(() => {
        post({ k: 'close', s: s.id, r: 'no_leader' }) // a leader that answers late forgets it
        s.shut(HANDOVER_CLOSE, closeReason('no_leader'))
      }, TABS_DEFAULTS.openWaitMs)
    }

    const link: SocketLink = {
      attach(s) {
        sockets.set(s.id, s)
        if (bc) open(s)
        else s.shut(HANDOVER_CLOSE, closeReason('tabs_stopped'))
      },
      up(s, text) {
        if (text.includes('"presence.')) track(text)
        if (s.leader === tabId) hub?.up(s.id, text)
        else post({ k: 'up', s: s.id, d: text })
      },
      closed(s, reason) {
        sockets.delete(s.id)
        if (s.leader === tabId) hub?.closed(s.id, reason)
        else post({ k: 'close', s: s.id, r: reason }) // opened, or asked to be: either way the leader forgets it
      },
      forget: (s) => sockets.delete(s.id),
    }

    function track(text: string) {
      try {
        const f = JSON.parse(text) as { type?: unknown; channel?: unknown }
        if (typeof f.channel !== 'string') return
        const had = entered.size
        if (f.type === 'presence.leave') entered.delete(f.channel)
        else if (f.type === 'presence.enter' || f.type === 'presence.update') entered.add(f.channel)
        if (entered.size !== had) post({ k: 'present', t: tabId, e: [...entered] })
      } catch {
        // Not ours to judge: the service answers it.
      }
    }

    /** Closes this tab's sockets that are not the leader's `l`, and offers the waiting ones to it. */
    function follow(l: string | undefined, why: string) {
      for (const s of [...sockets.values()]) {
        if (s.leader === undefined) {
          if (l) open(s)
        } else if (s.leader !== l) s.shut(HANDOVER_CLOSE, closeReason(why))
      }
    }

    function lead() {
      // Where only the tab that led before was present, nobody will leave: the new hub does.
      const others = [...present].filter(([t]) => t !== former).flatMap(([, e]) => e)
      const orphans = (former ? (present.get(former) ?? []) : []).filter((c) => !entered.has(c) && !others.includes(c))
      if (former) present.delete(former)
      leader = tabId
      hub = createHub({
        url: ctx.url,
        WebSocket: WS,
        post,
        resumeId: connectionId,
        orphans,
        graceMs: options.graceMs ?? TABS_DEFAULTS.leftTabGraceMs,
        watch(tab, gone) {
          const signal = abort?.signal
          // Granted once that tab's own lock is free: it has gone.
          locks!.request(`${name}:tab:${tab}`, { signal }, () => Promise.resolve(gone())).catch(() => {})
        },
      })
      setRole('leader')
      post({ k: 'leader', l: tabId })
      follow(tabId, 'leader_changed')
      asks.resend(
        (q, stale) =>
          void serveToken(ctx.auth, stale).then(
            (token) => asks.answer({ k: 'tokened', q, token }),
            (e: { code?: string; message?: string }) =>
              asks.answer({ k: 'tokened', q, code: e.code, message: e.message }),
          ),
      )
    }

    function receive(m: TabMessage) {
      switch (m.k) {
        case 'who':
          if (entered.size) post({ k: 'present', t: tabId, e: [...entered] })
          return role === 'leader' && post({ k: 'leader', l: tabId })
        case 'present':
          if (m.e.length) present.set(m.t, m.e)
          else present.delete(m.t)
          return
        case 'leader':
          if (former !== m.l && former) present.delete(former) // the new leader settled its presence
          leader = former = m.l
          if (role !== 'leader') setRole('follower')
          follow(m.l, 'leader_changed')
          return asks.resend()
        case 'bye':
          if (leader !== m.l) return
          leader = undefined
          setRole('electing')
          return follow(undefined, 'leader_gone')
        case 'opened': {
          const s = sockets.get(m.s)
          if (s) return s.opened(m.l)
          // Ours, but closed before the answer came: the leader must forget it.
          if (m.s.startsWith(`${tabId}:`)) post({ k: 'close', s: m.s, r: 'gone' })
          return
        }
        case 'down':
          for (const id of m.to) sockets.get(id)?.receive(m.d)
          return
        case 'shut':
          for (const id of m.to) sockets.get(id)?.shut(m.c, m.r)
          return
        case 'conn':
          connectionId = m.c
          return
        case 'tokened':
          return asks.answer(m)
      }
      if (role !== 'leader' || !hub) return
      switch (m.k) {
        case 'open':
          hub.open({ id: m.s, tab: m.t, entered: new Set(m.e) })
          return post({ k: 'opened', s: m.s, l: tabId })
        case 'up':
          return hub.up(m.s, m.d)
        case 'close':
          return hub.closed(m.s, m.r)
        case 'token':
          return void serveToken(ctx.auth, m.stale).then(
            (token) => post({ k: 'tokened', q: m.q, token }),
            (e: { code?: string; message?: string }) =>
              post({ k: 'tokened', q: m.q, code: e.code ?? 'token_unavailable', message: e.message }),
          )
      }
    }

    function join() {
      if (bc || stopped) return
      bc = new BC!(name)
      bc.onmessage = (e) => receive(e.data as TabMessage)
      const ac = (abort = new AbortController())
      const hold = (lock: string, then?: () => void) =>
        locks!
          .request(lock, { signal: ac.signal }, () => {
            then?.()
            return new Promise<void>((done) => release.push(done))
          })
          .catch(() => {}) // aborted while queued: this tab left
      void hold(`${name}:tab:${tabId}`) // held while the tab lives: the leader learns of its end
      void hold(`${name}:leader`, lead)
      post({ k: 'who' })
    }

    /** Leaves the group: the page is hidden or frozen, or `stop()`. */
    function leaveGroup() {
      if (!bc) return
      if (role === 'leader') {
        // Its presence is the next leader's to settle (orphans).
        post({ k: 'bye', l: tabId })
        hub?.stop()
        hub = undefined
      } else {
        // Its presence is the leader's hub's to settle.
        post({ k: 'present', t: tabId, e: [] })
        for (const s of sockets.values()) if (s.leader) post({ k: 'close', s: s.id, r: 'tab_left' })
      }
      for (const s of [...sockets.values()]) s.shut(HANDOVER_CLOSE, closeReason('tab_left'))
      abort?.abort()
      for (const done of release.splice(0)) done()
      bc.close()
      bc = undefined
      leader = undefined
      setRole('stopped')
    }

    // A hidden page (closed, or into the back/forward cache) and a frozen one leave; a page shown
    // again, or resumed, joins.
    const page = globalThis as Partial<EventTarget>
    const doc = (globalThis as { document?: Partial<EventTarget> }).document
    const onHide = leaveGroup
    const back = () => {
      if (bc || stopped) return
      setRole('electing')
      join()
    }
    const onShow = (e: Event) => (e as PageTransitionEvent).persisted && back()
    const each = (method: 'addEventListener' | 'removeEventListener') => {
      page[method]?.('pagehide', onHide)
      page[method]?.('pageshow', onShow)
      doc?.[method]?.('freeze', onHide)
      doc?.[method]?.('resume', back)
    }
    each('addEventListener')
    leave = () => {
      leaveGroup()
      each('removeEventListener')
    }
    join()

    const auth: TokenProvider = {
      getToken: (o) =>
        stopped
          ? Promise.reject(
              rtError('tabs_stopped', 'This tab left the shared connection (tabs.stop()): close this client'),
            )
          : role === 'leader'
            ? ctx.auth.getToken(o)
            : asks.ask(o?.forceRefresh ? lastToken : stale).then(keep),
      invalidate(token) {
        ctx.auth.invalidate(token)
        if (token === undefined || token === lastToken) stale = lastToken
      },
      expiresAt: () => (role === 'leader' ? ctx.auth.expiresAt() : undefined),
      on: ctx.auth.on,
    }
    let lastToken: string | undefined
    let stale: string | undefined
    const keep = (token: string) => {
      lastToken = token
      if (token !== stale) stale = undefined
      return token
    }
    return { WebSocket: tabSocketClass(link, tabId), auth }
  }) as TabShare

  Object.defineProperties(share, {
    tabId: { value: tabId },
    role: { get: () => role },
    leader: { get: () => leader },
  })
  share.on = events.on
  share.stop = () => {
    stopped = true
    leave?.()
  }
  share.stats = () => hub?.stats()
  return share
}
