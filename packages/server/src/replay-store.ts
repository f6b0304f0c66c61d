// Remembers webhook event ids for a while, so a captured delivery cannot be replayed.

/**
 * Where `createWebhookHandler` remembers the event ids it has accepted. The default is in
 * memory (one process); several instances behind a load balancer need a shared store
 * (Redis `SET id 1 EX ttl NX`, a database table with an expiry, …).
 */
export interface WebhookReplayStore {
  /** True when `id` was remembered and has not expired. */
  seen(id: string): boolean | Promise<boolean>
  /** Remember `id` for `ttlSeconds`. */
  remember(id: string, ttlSeconds: number): void | Promise<void>
}

export interface MemoryReplayStoreOptions {
  /** Oldest ids are forgotten first past this; default 10 000. */
  maxEntries?: number
  /** Current time in ms; for tests. */
  now?: () => number
}

const STORE_DEFAULTS = { maxEntries: 10_000 } as const

/** A bounded in-memory replay store: memory stays flat whatever a sender (or an attacker) sends. */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): WebhookReplayStore {
  const maxEntries = options.maxEntries ?? STORE_DEFAULTS.maxEntries
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer')
  const now = options.now ?? Date.now
  // Insertion order is (nearly) expiry order, since every id gets the same ttl: the front
  // of the Map is always the next to expire or to be evicted.
  const expiries = new Map<string, number>()

  const sweep = (at: number): void => {
    for (const [id, expiresAt] of expiries) {
      if (expiresAt > at && expiries.size <= maxEntries) break
      expiries.delete(id)
    }
  }

  return {
    seen(id) {
      const expiresAt = expiries.get(id)
      if (expiresAt === undefined) return false
      if (expiresAt > now()) return true
      expiries.delete(id)
      return false
    },
    remember(id, ttlSeconds) {
      const at = now()
      expiries.delete(id) // re-inserted at the back, keeping the order above
      expiries.set(id, at + ttlSeconds * 1000)
      sweep(at)
    },
  }
}
