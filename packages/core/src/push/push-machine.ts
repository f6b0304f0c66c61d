import type { TandemError } from '../errors.js'
import type { PushReason, PushState } from './types.js'

// Push as a pure machine (docs/architecture.md, "State machines"): `transition(state, event)` looks
// the pair up in TABLE and returns the next state and the effects to carry out, as data. No browser
// API, no request: create-push.ts asks, subscribes, registers and removes, and feeds the outcomes in.

/** The browser's answer about notifications (`Notification.permission`; a permission query's `prompt` is `default`). */
export type Permission = 'default' | 'denied' | 'granted'

export type PushPhase =
  /** Made, not started. */
  | 'idle'
  | 'unsupported'
  /** Not subscribed; the permission is `default` or `granted`. */
  | 'default'
  | 'denied'
  /** The permission prompt is open. */
  | 'asking'
  /** The browser's subscription is being read or made (with the service's key). */
  | 'subscribing'
  /** The subscription is being registered on the service. */
  | 'registering'
  | 'subscribed'
  /** The subscription is being removed (the browser's and the service's). */
  | 'removing'
  | 'error'
  | 'stopped'

/** What the browser's subscription says, as `PushSubscription.toJSON()` gives it. */
export interface BrowserSubscription {
  endpoint: string
  keys: { p256dh: string; auth: string }
  expirationTime: number | null
}

export interface PushMachineState {
  readonly phase: PushPhase
  /** What the store shows: the same object until something in it changes. */
  readonly snapshot: PushState
  readonly permission: Permission
  /** The subscribe/register attempt under way; an outcome of an earlier one is ignored. */
  readonly attempt: number
  /** The current attempt only reads a subscription the browser already has (start-up, a renewal). */
  readonly existingOnly: boolean
  /**
   * `enable()` was called while it could not act: during such a read (a missing subscription is then
   * made, not accepted), or during a removal (the removal's end subscribes again).
   */
  readonly wanted: boolean
  /** The service's id of the registered subscription. */
  readonly id: string | null
  /** Removals under way (a late registration adds one): `removing` ends with the last. */
  readonly removals: number
}

export type PushEvent =
  /** The runner started: what the browser lacks (null: nothing) and the permission. */
  | { type: 'start'; lacks: PushReason | null; permission: Permission }
  /** `enable()`; `gesture`: called within a user activation (true where the browser cannot tell). */
  | { type: 'enable'; gesture: boolean }
  /** The permission prompt's answer. */
  | { type: 'answered'; permission: Permission }
  /** The browser's subscription, made with the service's current key. */
  | { type: 'subscribed'; attempt: number; subscription: BrowserSubscription }
  /** A read found no subscription in the browser. */
  | { type: 'absent'; attempt: number }
  | { type: 'registered'; attempt: number; id: string }
  | { type: 'failed'; attempt: number; reason: PushReason; error: TandemError | null }
  /** The permission changed outside the page (site settings). */
  | { type: 'permission'; permission: Permission }
  /** The service worker says the browser replaced the subscription (`pushsubscriptionchange`). */
  | { type: 'renewed' }
  | { type: 'disable' }
  /** Logout: the key's `cleared` message, or the session's signal. */
  | { type: 'cleared' }
  /** The removal ended (it is best effort: it never fails). */
  | { type: 'removed' }
  /** The service worker registration failed (none in this page): push cannot work here. */
  | { type: 'unavailable'; lacks: PushReason }
  | { type: 'stop' }

export type PushEventType = PushEvent['type']

export type PushEffect =
  /** `Notification.requestPermission()`, at once (a user activation does not outlive the click); then `answered`. */
  | { type: 'ask' }
  /**
   * The browser's subscription with the service's key (replaced when made with another); then
   * `subscribed`, `absent` or `failed`. `listed` (start-up): the browser's one subscription is shared
   * by every user of this browser profile, so it is this subject's only when the service lists its
   * endpoint for the subject (else `absent`: never registered for a subject that did not enable push).
   */
  | { type: 'subscribe'; attempt: number; existingOnly: boolean; listed?: boolean }
  /** POST it to the service; then `registered` or `failed`. */
  | { type: 'register'; attempt: number; subscription: BrowserSubscription }
  /** DELETE `id` on the service (unknown: the subject's record of the browser's endpoint), then unsubscribe in the browser; then `removed`. */
  | { type: 'remove'; id: string | null }
  /** Stop listening (the permission, the service worker, the tabs). */
  | { type: 'close' }

export interface PushResult {
  state: PushMachineState
  effects: PushEffect[]
}

type Handler<E extends PushEventType> = (s: PushMachineState, e: Extract<PushEvent, { type: E }>) => PushResult
type Edges = { readonly [E in PushEventType]?: Handler<E> }

const NOTHING: PushState = { status: 'default', reason: null, error: null }

export const initialPushState = (): PushMachineState => ({
  phase: 'idle',
  snapshot: NOTHING,
  permission: 'default',
  attempt: 0,
  existingOnly: false,
  wanted: false,
  id: null,
  removals: 0,
})

/** The snapshot with `next`: the same object when it changes nothing. */
const show = (s: PushState, next: PushState): PushState =>
  s.status === next.status && s.reason === next.reason && s.error === next.error ? s : next

const same = (state: PushMachineState): PushResult => ({ state, effects: [] })
/** `s` in `phase` with `change`, showing `status` (with `reason`, `error`), and `effects`: every edge's builder. */
const to = (
  s: PushMachineState,
  phase: PushPhase,
  view: PushState,
  change: Partial<PushMachineState> = {},
  effects: PushEffect[] = [],
): PushResult => ({ state: { ...s, ...change, phase, snapshot: show(s.snapshot, view) }, effects })

const view = (status: PushState['status'], reason: PushReason | null = null, error: TandemError | null = null) => ({
  status,
  reason,
  error,
})
/** Not subscribed: what the permission allows next. */
const rest = (p: Permission) => (p === 'denied' ? 'denied' : 'default')

/** A new attempt at the browser's subscription (every outcome of the one before is ignored from now). */
const subscribe = (
  s: PushMachineState,
  existingOnly: boolean,
  change: Partial<PushMachineState> = {},
  listed?: boolean,
): PushResult => {
  const attempt = s.attempt + 1
  return to(s, 'subscribing', view('subscribing'), { ...change, attempt, existingOnly }, [
    { type: 'subscribe', attempt, existingOnly, listed },
  ])
}

/** Removes what is subscribed, showing where it ends at once (`removed` only settles the phase). */
const remove = (s: PushMachineState, reason: PushReason, permission = s.permission): PushResult =>
  to(
    s,
    'removing',
    view(rest(permission), reason),
    { permission, id: null, attempt: s.attempt + 1, removals: s.removals + 1, wanted: false },
    [{ type: 'remove', id: s.id }],
  )

const current = (s: PushMachineState, e: { attempt: number }) => e.attempt === s.attempt

const start: Handler<'start'> = (s, { lacks, permission }) => {
  if (lacks) return to(s, 'unsupported', view('unsupported', lacks), { permission })
  // Granted before: the subscription this browser may hold is read and, when the service lists it for
  // this subject, registered again (idempotent).
  if (permission === 'granted') return subscribe(s, true, { permission }, true)
  return to(s, rest(permission), view(rest(permission)), { permission })
}

/** A prompt only from a click; with the permission given, straight to the subscription. */
const enable: Handler<'enable'> = (s, { gesture }) => {
  if (!gesture) return to(s, s.phase, view(s.snapshot.status, 'no_user_gesture', s.snapshot.error))
  if (s.permission === 'granted') return subscribe(s, false, { wanted: false })
  return to(s, 'asking', view('subscribing'), {}, [{ type: 'ask' }])
}

const answered: Handler<'answered'> = (s, { permission }) => {
  if (permission === 'granted') return subscribe(s, false, { permission })
  return to(s, rest(permission), view(rest(permission), permission === 'denied' ? 'blocked' : 'dismissed'), {
    permission,
  })
}

const subscribed: Handler<'subscribed'> = (s, e) =>
  current(s, e)
    ? to(s, 'registering', s.snapshot, {}, [{ type: 'register', attempt: e.attempt, subscription: e.subscription }])
    : same(s)

/** Nothing to register: made after all when `enable()` asked meanwhile, else not subscribed. */
const absent: Handler<'absent'> = (s, e) => {
  if (!current(s, e)) return same(s)
  return s.wanted ? subscribe(s, false, { wanted: false }) : to(s, 'default', view('default'))
}

const registered: Handler<'registered'> = (s, e) =>
  current(s, e) ? to(s, 'subscribed', view('subscribed'), { id: e.id, wanted: false }) : same(s)

const failed: Handler<'failed'> = (s, e) =>
  current(s, e) ? to(s, 'error', view('error', e.reason, e.error), { wanted: false }) : same(s)

/** While subscribed or on the way: a permission taken back removes the subscription. */
const revoked: Handler<'permission'> = (s, { permission }) =>
  permission === 'granted' ? to(s, s.phase, s.snapshot, { permission }) : remove(s, 'revoked', permission)

/** While not subscribed: the permission decides between `default` and `denied`. */
const permitted: Handler<'permission'> = (s, { permission }) => {
  // An error stays shown until denied; a permission given back after `denied` is `default` again.
  const phase = permission === 'denied' ? 'denied' : s.phase === 'denied' ? 'default' : s.phase
  if (phase === s.phase) return to(s, phase, s.snapshot, { permission })
  return to(s, phase, phase === 'denied' ? view('denied', 'blocked') : view('default'), { permission })
}

/** The service worker replaced the subscription: it is read and registered again. */
const renewed: Handler<'renewed'> = (s) => subscribe(s, true)
const disable: Handler<'disable'> = (s) => remove(s, 'disabled')
const cleared: Handler<'cleared'> = (s) => remove(s, 'logged_out')
/**
 * The last removal's end: subscribes again when `enable()` came during it. With the permission
 * granted no prompt is needed; without it, a prompt now would come after the click's activation has
 * ended (browsers refuse or hide one), so it ends as a refused `enable()` does: the user clicks again.
 */
const removed: Handler<'removed'> = (s) => {
  if (s.removals > 1) return to(s, 'removing', s.snapshot, { removals: s.removals - 1 })
  const change = { removals: 0, wanted: false }
  const p = s.permission
  if (!s.wanted) return to(s, rest(p), s.snapshot, change)
  if (p === 'granted') return subscribe(s, false, change)
  return to(s, rest(p), view(rest(p), p === 'denied' ? 'blocked' : 'no_user_gesture'), change)
}
/** `enable()` from a click during a removal: remembered (the UI already shows `default`, so a user may click). */
const again: Handler<'enable'> = (s, e) =>
  e.gesture ? to(s, 'removing', view('subscribing'), { wanted: true }) : enable(s, e)
/** `disable()` or a logout during a removal: an `enable()` remembered meanwhile is forgotten. */
const forget = (reason: PushReason) => (s: PushMachineState) =>
  to(s, 'removing', view(rest(s.permission), reason), { wanted: false })
/** A registration that landed after its removal began: removed too (the service would push to it). */
const late: Handler<'registered'> = (s, e) =>
  to(s, 'removing', s.snapshot, { removals: s.removals + 1 }, [{ type: 'remove', id: e.id }])
const unavailable: Handler<'unavailable'> = (s, { lacks }) =>
  to(s, 'unsupported', view('unsupported', lacks), { id: null, attempt: s.attempt + 1 })
const stop: Handler<'stop'> = (s) => to(s, 'stopped', s.snapshot, {}, [{ type: 'close' }])
/** `enable()` while a start-up read runs: a missing subscription is then made. */
const want: Handler<'enable'> = (s) =>
  s.existingOnly && !s.wanted ? to(s, s.phase, s.snapshot, { wanted: true }) : same(s)

/** Subscribed, or on the way there: the subscription (or the attempt) is removed on any of these. */
const HELD: Edges = { permission: revoked, disable, cleared, unavailable, stop }
/** Not subscribed (a browser subscription another tab made is still removed on a logout). */
const OFF: Edges = { enable, permission: permitted, disable, cleared, unavailable, stop }

/** Every legal (phase, event) pair; a pair not here changes nothing. */
export const TABLE: { readonly [P in PushPhase]: Edges } = {
  idle: { start, stop },
  unsupported: { stop },
  default: OFF,
  error: OFF,
  // The browser asks no more once denied: only the site's settings change it (`permission`).
  denied: { enable: (s) => to(s, 'denied', view('denied', 'blocked')), permission: permitted, unavailable, stop },
  // A logout or disable() during the prompt: nothing to remove yet, and its answer (ignored) subscribes nothing.
  asking: {
    answered,
    permission: (s, { permission }) => to(s, 'asking', s.snapshot, { permission }),
    disable: (s) => to(s, 'default', view('default', 'disabled')),
    cleared: (s) => to(s, 'default', view('default', 'logged_out')),
    unavailable,
    stop,
  },
  subscribing: { ...HELD, subscribed, absent, failed, renewed, enable: want },
  registering: { ...HELD, registered, failed, renewed },
  subscribed: { ...HELD, renewed },
  // The store already shows where the removal ends, so a user may click: see `removed`.
  removing: {
    removed,
    enable: again,
    disable: forget('disabled'),
    cleared: forget('logged_out'),
    registered: late,
    permission: (s, { permission }) => to(s, 'removing', s.snapshot, { permission }),
    unavailable,
    stop,
  },
  stopped: {},
}

export function transition(s: PushMachineState, e: PushEvent): PushResult {
  const handler = TABLE[s.phase][e.type] as Handler<PushEventType> | undefined
  return handler ? handler(s, e) : same(s)
}
