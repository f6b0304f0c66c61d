import type { TandemError } from '../errors.js'
import type { SavedEntry } from './saved-entries.js'
import type { TabMessage } from './tab-channel.js'
import type { LogoutSource, PersistEvents, RestoreResult, StorageMode } from './types.js'

// The saved cache as a pure machine: `transition(state, event)` looks the pair up in TABLE and
// returns the next state and the effects to carry out, as data. No clock, no storage, no timers:
// persist-cache.ts reads and writes storage, posts to the tabs, and feeds the outcomes back in.

/**
 * `restoring`: the saved cache is being read into the client's cache; `ready`: restored, saving
 * what changes; `logged_out`: the key's session ended (here or in another tab), nothing is saved or
 * heard any more; `stopped`: `stop()`, what is saved stays. Changes save and post in `restoring` too.
 */
export type PersistPhase = 'restoring' | 'ready' | 'logged_out' | 'stopped'

export interface PersistState {
  readonly phase: PersistPhase
  readonly mode: StorageMode
  /** What the restore found, once it has (it may end after a logout or a stop). */
  readonly restore?: RestoreResult | undefined
  readonly loggedOut?: LogoutSource | undefined
  /** Entries that changed since the last post to the other tabs, by hash. */
  readonly outgoing: ReadonlyMap<string, SavedEntry>
  /** The throttle's timer runs: a save is due. */
  readonly due: boolean
  /** Entries are landing (the saved ones, or another tab's): their changes are news to no one. */
  readonly landing: boolean
}

export type PersistEvent =
  /** The restore is done (it never fails: a failure is `unreadable`). */
  | { type: 'restored'; result: RestoreResult }
  /** New data in the client's cache for a list's or an item's query (the runner filters what is news). */
  | { type: 'change'; hash: string; entry: SavedEntry }
  /** The microtask after a change: what changed meanwhile goes to the other tabs in one post. */
  | { type: 'post' }
  /** The throttle's timer ran out, `flush()`, or the page is hidden. */
  | { type: 'save' }
  /** A write ended: `ours` false when the key's session was no longer this page's; `entries` when it wrote. */
  | { type: 'saved'; ours: boolean; entries: number | undefined }
  /** A message of another tab of the key (checked by tab-channel.ts's `parse`). */
  | { type: 'heard'; message: TabMessage }
  /** Entries go into the client's cache now, and `landed` once they are in (`remote`: another tab's). */
  | { type: 'landing' }
  | { type: 'landed'; remote?: { entries: number; dropped: number } }
  /** The page is shown again: it may have slept through a logout. */
  | { type: 'woke' }
  /** What the stored session record says after `woke`. */
  | { type: 'session'; current: boolean }
  | { type: 'logout'; by: LogoutSource }
  /** Storage is full or refused: kept in memory from now on. */
  | { type: 'fallback'; error: TandemError }
  | { type: 'stop' }

export type PersistEventType = PersistEvent['type']

/** One of `PersistEvents`, to say. */
export type Tell = {
  [E in keyof PersistEvents]: { type: 'tell'; event: E; value: Parameters<PersistEvents[E]>[0] }
}[keyof PersistEvents]

export type PersistEffect =
  /** Post `post` on the next microtask. */
  | { type: 'queue_post' }
  | { type: 'post'; entries: SavedEntry[] }
  /** Start the throttle's timer (`throttleMs`); `write` clears it. */
  | { type: 'schedule_save' }
  /** Save the client's cache now, while the key's session is this page's; then `saved`. */
  | { type: 'write' }
  /** Check another tab's entries one by one and put those that fit in the client's cache. */
  | { type: 'land'; entries: readonly unknown[] }
  /** Read the stored session record; then `session`. */
  | { type: 'check' }
  /** Stop listening: to the cache, the outbox, the page, the other tabs; the throttle's timer too. */
  | { type: 'detach' }
  /** Empty the client's cache (a logout). */
  | { type: 'wipe' }
  /** The public snapshot follows the state. */
  | { type: 'publish' }
  | Tell

export type PersistEffectType = PersistEffect['type']

export interface PersistResult {
  state: PersistState
  effects: PersistEffect[]
}

type Handler<E extends PersistEventType> = (s: PersistState, e: Extract<PersistEvent, { type: E }>) => PersistResult
type Edges = { readonly [E in PersistEventType]?: Handler<E> }

export const initialPersistState = (mode: StorageMode): PersistState => ({
  phase: 'restoring',
  mode,
  outgoing: new Map(),
  due: false,
  landing: false,
})

const to = (s: PersistState, patch: Partial<PersistState>, ...effects: PersistEffect[]): PersistResult => ({
  state: { ...s, ...patch },
  effects,
})
const same = (s: PersistState): PersistResult => ({ state: s, effects: [] })

const restored: Handler<'restored'> = (s, e) =>
  to(
    s,
    { restore: e.result, phase: s.phase === 'restoring' ? 'ready' : s.phase },
    { type: 'publish' },
    {
      type: 'tell',
      event: 'restore',
      value: e.result,
    },
  )

const fallback: Handler<'fallback'> = (s, e) =>
  to(s, { mode: 'memory' }, { type: 'publish' }, { type: 'tell', event: 'fallback', value: e.error })

/** The session is over: the cache empties, the page stops listening (unless stopped), and says so. Once. */
const logout: Handler<'logout'> = (s, e) =>
  to(
    s,
    { phase: 'logged_out', loggedOut: e.by, outgoing: new Map(), due: false },
    ...(s.phase === 'stopped' ? [] : [{ type: 'detach' } as const]),
    { type: 'wipe' },
    { type: 'publish' },
    { type: 'tell', event: 'cleared', value: { by: e.by } },
  )

/** A write ended: the session gone means a logout this page did not hear (asleep). */
const saved: Handler<'saved'> = (s, e) =>
  !e.ours
    ? logout(s, { type: 'logout', by: 'another-tab' })
    : e.entries === undefined
      ? same(s)
      : to(s, {}, { type: 'tell', event: 'save', value: { entries: e.entries } })

/** Restoring or ready: saving, posting and hearing. */
const LIVE: Edges = {
  restored,
  fallback,
  logout,
  saved,
  change: (s, e) => {
    if (s.landing) return same(s) // the sender saves it, and the other tabs have it
    const effects: PersistEffect[] = s.outgoing.size ? [] : [{ type: 'queue_post' }]
    if (!s.due) effects.push({ type: 'schedule_save' })
    return to(s, { outgoing: new Map(s.outgoing).set(e.hash, e.entry), due: true }, ...effects)
  },
  post: (s) =>
    s.outgoing.size ? to(s, { outgoing: new Map() }, { type: 'post', entries: [...s.outgoing.values()] }) : same(s),
  save: (s) => to(s, { due: false }, { type: 'write' }),
  heard: (s, e) =>
    e.message.t === 'cleared'
      ? logout(s, { type: 'logout', by: 'another-tab' })
      : e.message.t === 'entries'
        ? to(s, {}, { type: 'land', entries: e.message.entries })
        : same(s),
  landing: (s) => to(s, { landing: true }),
  landed: (s, e) =>
    to(s, { landing: false }, ...(e.remote ? [{ type: 'tell', event: 'remote', value: e.remote } as const] : [])),
  woke: (s) => to(s, {}, { type: 'check' }),
  session: (s, e) => (e.current ? same(s) : logout(s, { type: 'logout', by: 'another-tab' })),
  stop: (s) => to(s, { phase: 'stopped', outgoing: new Map(), due: false }, { type: 'detach' }),
}

/** Every legal (phase, event) pair; a pair not here changes nothing. */
export const TABLE: { readonly [P in PersistPhase]: Edges } = {
  restoring: LIVE,
  ready: LIVE,
  // Nothing is saved or heard any more; a restore still under way ends (its promise resolves).
  logged_out: { restored, fallback },
  // What is saved stays; a logout (this page's `clearPersisted()`, a write that found the session gone) still ends it.
  stopped: { restored, fallback, logout, saved },
}

export function transition(s: PersistState, e: PersistEvent): PersistResult {
  const handler = TABLE[s.phase][e.type] as Handler<PersistEventType> | undefined
  return handler ? handler(s, e) : same(s)
}
