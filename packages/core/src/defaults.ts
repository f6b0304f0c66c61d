import { PLANS } from '@tandem/contract'

/** The token provider's defaults (their own object, so an app with only a token provider ships only them). */
export const TOKEN_DEFAULTS = {
  refreshMarginMs: 30_000,
  refreshMarginRatio: 0.1,
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  /** After a failed refresh, further calls fail fast for a growing while (no tight loop). */
  cooldownBaseMs: 1_000,
  cooldownMaxMs: 30_000,
  timeoutMs: 10_000,
} as const

/** A released lease is let go this much later (see `DEFAULTS.leaseReleaseMs`). */
export const LEASE_RELEASE_MS = 100

/** A live list that only the service can update (a free-text filter) refetches once per this window. */
export const LIVE_REFETCH_MS = 50

/** Every default of @tandem/core, in one place. */
export const DEFAULTS = {
  baseUrl: 'https://api.tandem.dev',
  /** Each attempt's own limit; a call's deadline (`timeoutMs`) has no default. */
  attemptTimeoutMs: 15_000,
  /** The largest answer read: a few MB, 10× the largest the services give (a world map view, ~270 kB). */
  maxResponseBytes: 3_000_000,
  retry: {
    limit: 2,
    baseDelayMs: 300,
    maxDelayMs: 10_000,
    /** A `Retry-After` longer than this is not waited for: the call fails with `RateLimitError`. */
    maxRetryAfterMs: 60_000,
  },
  /** Client-side buckets mirror each service's plan (DESIGN.md §1). */
  rateLimit: PLANS,
  /** The bucket starts refilling this much later than it could, to absorb latency jitter. */
  rateLimitSafetyMs: 200,
  token: TOKEN_DEFAULTS,
  logLevel: 'info',
  /**
   * A released lease (a channel held by a hook, a live binding) is let go this much later, and a new
   * lease meanwhile keeps it: React StrictMode's mount–unmount–mount neither resubscribes nor loses anything.
   */
  leaseReleaseMs: LEASE_RELEASE_MS,
  liveRefetchMs: LIVE_REFETCH_MS,
  /** The resource cache (docs/cache.md). */
  cache: {
    /** 0: data is stale at once, so every mount revalidates (TanStack Query's default). */
    staleTime: 0,
    /** Browser only; where there is no `window` entries are kept until `clear()`. */
    gcTime: 300_000, // 5 min (a literal: an expression here would keep this object in every bundle)
    refetchOnFocus: true,
    refetchOnReconnect: true,
    refetchInterval: false,
    /** Hydrated data counts as fresh at least this long, so the hydrating render does not refetch it. */
    hydrateFreshMs: 2_000,
  },
} as const
