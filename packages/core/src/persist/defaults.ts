// The saved cache's and the durable outbox's defaults (docs/persist.md), with them: an app that
// never persists does not ship them. `DEFAULTS.persist` of @tandem/core is this object.
export const PERSIST_DEFAULTS = {
  /** Saved data older than this is dropped at restore. */
  maxAgeMs: 86_400_000, // 24 h
  /** The cache is saved at most this often (and at once when the page is hidden). */
  throttleMs: 1_000,
  /** The outbox holds at most this many writes, and this many bytes of them (their JSON). */
  maxEntries: 1_000,
  maxBytes: 5_000_000,
  /** ...and this many bytes of the files held with them (a storage quota must not flip it to memory). */
  maxFileBytes: 100 * 1024 * 1024,
  /** A stored write that failed for now goes again after a backoff (full jitter, up to the step) from this... */
  retryBaseMs: 1_000,
  /** ...to this (and at once when the page comes back online). */
  retryMaxMs: 30_000,
} as const
