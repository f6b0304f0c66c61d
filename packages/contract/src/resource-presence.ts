// Who else is on a resource (an agent viewing, typing in or holding a conversation): one presence
// channel per collection, so a list shows every row's viewers through a single subscription.
// Each member's data is a `ResourcePresenceData` (asyncapi.json).

/** The collections that have resource presence. */
export const PRESENCE_COLLECTIONS = ['support/conversations'] as const
export type PresenceCollection = (typeof PRESENCE_COLLECTIONS)[number]

/** `support/conversations` → `support:conversations:presence`. */
export const resourcePresenceChannel = (path: PresenceCollection): string => `${path.replace('/', ':')}:presence`

/** Resources one member may view, type in or lock at once (the lists of `ResourcePresenceData`). */
export const MAX_PRESENCE_RESOURCES = 20
/** A soft lock's time limit, ms. */
export const LOCK_TTL_MIN = 1_000
export const LOCK_TTL_MAX = 600_000
export const LOCK_TTL_DEFAULT = 60_000
