// Remembers webhook event ids for a while, so a captured delivery cannot be replayed, and claims
// each event for one handler run, so two copies delivered at once are handled once.

/**
 * Where `createWebhookHandler` records the events it handles. The default is in memory (one
 * process); several instances behind a load balancer (or serverless) need a shared one:
 * `createRedisReplayStore` from `@tandem/server/redis`, or your own.
 *
 * A store implements `claim` (with `complete` and `release`; `completed` tells a refused claim
 * in flight from one handled). With `renew` as well, a claim is a lease: taken for
 * `DEFAULTS.webhookLeaseSeconds` (30 s) and renewed while the handler runs, so a claim whose
 * holder died, or whose reply was lost on the way back, lapses in seconds rather than after the
 * whole ttl. `owner` tells this claim from another's, for `renew` and `release`. Older stores
 * with only `seen` and `remember` still work, but two concurrent deliveries on two instances can
 * both pass `seen`: use `claim`.
 */
export interface WebhookReplayStore {
  /** Atomically claims `id` for `ttlSeconds` (a lease, with `renew`): true for the first claimant only. */
  claim?: (id: string, ttlSeconds: number, owner: string) => boolean | Promise<boolean>
  /** Extends `owner`'s claim on `id` to `ttlSeconds` from now: false when it is no longer `owner`'s. */
  renew?: (id: string, ttlSeconds: number, owner: string) => boolean | Promise<boolean>
  /** The claimed event was handled: keep it, as handled, for `ttlSeconds`. */
  complete?: (id: string, ttlSeconds: number, owner: string) => void | Promise<void>
  /** The handler failed: forget `owner`'s claim, so the sender's next delivery is accepted. */
  release?: (id: string, owner: string) => void | Promise<void>
  /** For a refused claim: was the event handled (true), or is it still being handled (false)? */
  completed?: (id: string) => boolean | Promise<boolean>
  /** Legacy: true when `id` was remembered and has not expired. */
  seen?: (id: string) => boolean | Promise<boolean>
  /** Legacy: remember `id` for `ttlSeconds`. */
  remember?: (id: string, ttlSeconds: number) => void | Promise<void>
}

export interface MemoryReplayStoreOptions {
  /**
   * Oldest ids are forgotten first past this.
   * @default 10_000
   */
  maxEntries?: number
  /**
   * Current time in ms; for tests.
   * @default `Date.now`
   */
  now?: () => number
}

const STORE_DEFAULTS = { maxEntries: 10_000 } as const

/** The in-memory store: every method, each answering at once. */
export interface MemoryReplayStore extends WebhookReplayStore {
  claim: (id: string, ttlSeconds: number) => boolean
  complete: (id: string, ttlSeconds: number) => void
  release: (id: string) => void
  completed: (id: string) => boolean
  seen: (id: string) => boolean
  remember: (id: string, ttlSeconds: number) => void
}

/** A bounded in-memory replay store (one process): memory stays flat whatever a sender (or an attacker) sends. */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): MemoryReplayStore {
  const maxEntries = options.maxEntries ?? STORE_DEFAULTS.maxEntries
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer')
  const now = options.now ?? Date.now
  // Insertion order is (nearly) expiry order, since every id gets the same ttl: the front of the
  // Map is always the next to expire or to be evicted.
  const entries = new Map<string, { expiresAt: number; done: boolean }>()

  const sweep = (at: number): void => {
    for (const [id, { expiresAt }] of entries) {
      if (expiresAt > at && entries.size <= maxEntries) break
      entries.delete(id)
    }
  }
  const live = (id: string) => {
    const entry = entries.get(id)
    if (entry && entry.expiresAt > now()) return entry
    entries.delete(id)
    return undefined
  }
  const put = (id: string, ttlSeconds: number, done: boolean) => {
    const at = now()
    entries.delete(id) // re-inserted at the back, keeping the order above
    entries.set(id, { expiresAt: at + ttlSeconds * 1000, done })
    sweep(at)
  }

  return {
    claim(id, ttlSeconds) {
      if (live(id)) return false
      put(id, ttlSeconds, false)
      return true
    },
    complete: (id, ttlSeconds) => put(id, ttlSeconds, true),
    release(id) {
      entries.delete(id)
    },
    completed: (id) => live(id)?.done === true,
    seen: (id) => live(id) !== undefined,
    remember: (id, ttlSeconds) => put(id, ttlSeconds, true),
  }
}
