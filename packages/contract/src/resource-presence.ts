// Who else is on a resource (an agent viewing, typing in or holding a conversation): one presence
// channel per collection, so a list shows every row's viewers through a single subscription.
// Each member's data is a `ResourcePresenceData` (asyncapi.json).

import { UNSHOWABLE } from './unshowable.js'

/** The collections that have resource presence. */
export const PRESENCE_COLLECTIONS = ['support/conversations'] as const
export type PresenceCollection = (typeof PRESENCE_COLLECTIONS)[number]

/** `support/conversations` → `support:conversations:presence`. */
export const resourcePresenceChannel = (path: PresenceCollection): string => `${path.replace('/', ':')}:presence`

/** Resources one member may view, type in or lock at once (the lists of `ResourcePresenceData`). */
export const MAX_PRESENCE_RESOURCES = 20
/**
 * A soft lock's time limit, ms: a claim's `ttlMs` lies within these (the service refuses others,
 * and a client treats a relayed lock outside them as absent). The service stamps `acquiredAt` with
 * its own clock, once per claim, and never two claims of a channel with the same value, so the
 * earliest claim is the service's order, not any claimant's clock.
 */
export const LOCK_TTL_MIN = 1_000
export const LOCK_TTL_MAX = 600_000
export const LOCK_TTL_DEFAULT = 60_000

/**
 * A member's `name` (a hint: the service replaces it with the agent's verified name) holds none of
 * the characters that could disguise a name: no controls, no bidirectional overrides.
 */
export const PRESENCE_NAME = /* @__PURE__ */ new RegExp(`^[^${UNSHOWABLE}]*$`)
export const PRESENCE_NAME_RULE = 'must not hold control or bidirectional-override characters'
/** `name` without what PRESENCE_NAME refuses: a verified name as the service shows it. */
export const showableName = (name: string): string => name.replace(new RegExp(`[${UNSHOWABLE}]`, 'g'), '')
