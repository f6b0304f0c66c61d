import { createClient, type TandemClient } from '@tandem/core'
import type { PushController } from '@tandem/core/push'
import { durableOutbox, persistCache, type CachePersister, type DurableOutbox } from '@tandem/core/persist'
import { sessionPositions } from '@tandem/realtime/positions'
import { createRealtime, type Realtime } from '@tandem/realtime'
import { shareAcrossTabs, type TabShare } from '@tandem/realtime/tabs'
import { createEventLog, type EventLog } from './event-log.js'
import { attachPersistLog } from './persist-log.js'
import { createSessionPush } from './push.js'

/**
 * The saved cache's buster: bump it when a release changes what the cached lists hold, and every
 * browser drops the cache it saved before (the outbox's writes are kept: they are the user's work).
 */
export const CACHE_BUSTER = 'playground-30'

const NAMES = [
  'ada',
  'grace',
  'alan',
  'edsger',
  'barbara',
  'ken',
  'margaret',
  'dennis',
  'frances',
  'linus',
  'radia',
  'john',
]
const USER = /^[A-Za-z0-9_-]{1,32}$/

/** The rule `?user=` names follow (the token endpoint's), in words for the notice. */
export const USER_RULE = '1 to 32 letters, digits, _ or -'

/** This tab's user, and the `?user=` value it replaced when that one broke the rule. */
export interface TabUser {
  user: string
  /** The name asked for and refused, to tell the user (null: none given, or it was fine). */
  rejected: string | null
}

/**
 * Who this tab is. The playground has no sign-in: `?user=` (`?customer=` on the customer page) names the tab, else a random name is
 * picked and written into the URL (so a reload keeps it, and a new tab gets another one).
 * A real app has a session cookie instead, and its token endpoint reads it.
 */
export function tabUser(param: 'user' | 'customer' = 'user'): TabUser {
  const url = new URL(location.href)
  const given = url.searchParams.get(param)
  if (given && USER.test(given)) return { user: given, rejected: null }
  const name = `${NAMES[Math.floor(Math.random() * NAMES.length)]}-${Math.floor(100 + Math.random() * 900)}`
  url.searchParams.set(param, name)
  history.replaceState(null, '', url)
  return { user: name, rejected: given || null }
}

export interface Session {
  user: string
  /** A `?user=` that broke the rule and was replaced by `user` (the app says so). */
  rejectedUser: string | null
  client: TandemClient
  realtime: Realtime
  /** This tab's part in the one connection all of the user's tabs share. */
  tabs: TabShare
  /** Writes stored before they are sent: they survive offline, a reload, a crash. */
  outbox: DurableOutbox
  /** The saved cache: the first paint shows what this user saw last. */
  persister: CachePersister
  /** Web push for this user (the inbox's "Notify me" control): `unsupported` without the app's service worker. */
  push: PushController
  log: EventLog
}

/**
 * One client per tab, and one realtime connection for all the tabs of a user (the leading tab
 * holds it), sharing one token provider, wired to the event log.
 */
export function createSession({ user, rejected }: TabUser = tabUser()): Session {
  // One key per user for everything saved and shared: two users never see each other's.
  const key = `user:${user}`
  // Every write is stored (with its idempotency key) before it is sent; offline it waits, and a
  // reload sends it again. Short backoffs: a demo should recover in seconds, not half a minute.
  const outbox = durableOutbox({ key, retry: { baseMs: 500, maxMs: 5_000 } })
  // The browser never sees a key: it asks our own backend (here the Vite dev server) for tokens.
  const client = createClient({
    baseUrl: location.origin,
    auth: { url: `/api/tandem-token?user=${encodeURIComponent(user)}` },
    outbox,
  })
  // `outbox`: once a conversation's last held reply is applied (or refused), its lists are fetched again.
  const persister = persistCache(client, { key, buster: CACHE_BUSTER, outbox })
  // Tabs of one user share one socket (keyed by user: tabs of two users never share), and a
  // reload resumes the chat where this tab left it (`?user=` may change in a tab).
  const tabs = shareAcrossTabs({ key })
  // Chat messages go through the same outbox: written offline, they are sent once the socket is back.
  const realtime = createRealtime(
    { client },
    { tabs, outbox, positions: sessionPositions({ key: `tandem:realtime:${user}` }) },
  )
  // A logout in any of the user's tabs (this one's Log out, another's, or one this tab slept
  // through) ends the session here: the saved cache and the outbox end themselves and say so
  // (`cleared`); the connection is the app's to end. The app then shows the user signed out.
  persister.on('cleared', () => {
    realtime.close()
    tabs.stop()
  })
  // Customers' messages reach this agent while none of their tabs is open; a click opens the
  // inbox. `key`: a logout (clearPersisted) in any tab removes the subscription.
  const push = createSessionPush(client, { key, url: `${location.origin}/?user=${encodeURIComponent(user)}#support` })
  const log = createEventLog()
  log.attach(client, realtime)
  log.attachTabs(tabs)
  attachPersistLog(log, client, persister, outbox)
  return { user, rejectedUser: rejected, client, realtime, tabs, outbox, persister, push, log }
}
