import { PRESENCE_RATE } from '@tandem/contract'

// Resource presence's defaults (DEFAULTS.resourcePresence in ../defaults.ts). A file of their own:
// the pace is derived from the contract's PRESENCE_RATE at module level, which a bundler keeps
// wherever its file is, so only bundles with resource presence (or DEFAULTS) have it.

/**
 * `resourcePresence`: a connection's member data goes out at most once per `throttleMs` (changes in
 * between are coalesced), the pace the service's presence bucket refills at (`PRESENCE_RATE`: 100 ms),
 * so an agent never meets its `rate_limited`; `setTyping(true)` lapses after `typingIdleMs` without another.
 */
export const RESOURCE_PRESENCE = {
  throttleMs: PRESENCE_RATE.intervalMs / PRESENCE_RATE.limit,
  typingIdleMs: 5_000,
} as const
