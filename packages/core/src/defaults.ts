import { PLANS } from '@tandem/contract'
import { CACHE_DEFAULTS } from './cache/defaults.js'
import { PERSIST_DEFAULTS } from './persist/defaults.js'
import { AUTOCOMPLETE_DEFAULTS } from './services/maps/autocomplete/defaults.js'

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

/**
 * The most pages the SDK reads of one list by itself (a messenger thread, the customer's
 * conversations): a list with more, or one that comes back to a cursor, is an `ApiError`
 * (`too_many_pages`, `bad_response`) beside what did load, never a loop.
 */
export const MAX_PAGES = 50

/** The messenger (@tandem/core/messenger): an agent's typing shows this long after its last `typing` push. */
export const TYPING_TIMEOUT_MS = 10_000
/** The messenger's help search waits this long after the last keystroke before it asks. */
export const HELP_SEARCH_DEBOUNCE_MS = 250

/** The client's pipeline (base-client.ts): each its own constant, so an app ships only those it uses. */
export const BASE_URL = 'https://api.tandem.dev'
/** Each attempt's own limit; a call's deadline (`timeoutMs`) has no default. */
export const ATTEMPT_TIMEOUT_MS = 15_000
/** The largest answer read: a few MB, 10× the largest the services give (a world map view, ~270 kB). */
export const MAX_RESPONSE_BYTES = 3_000_000
export const RETRY = {
  limit: 2,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
  /** A `Retry-After` longer than this is not waited for: the call fails with `RateLimitError`. */
  maxRetryAfterMs: 60_000,
} as const
/** Client-side buckets mirror each service's plan (DESIGN.md §1). */
export const RATE_LIMITS = PLANS
/** The bucket starts refilling this much later than it could, to absorb latency jitter. */
export const RATE_LIMIT_SAFETY_MS = 200
export const LOG_LEVEL = 'info'

/**
 * Every default of @tandem/core, in one place. Only identifiers here, so that a bundle that never
 * reads `DEFAULTS` (the modular client, a maps-only app) drops it, and the cache's defaults with it.
 */
export const DEFAULTS = {
  baseUrl: BASE_URL,
  attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
  maxResponseBytes: MAX_RESPONSE_BYTES,
  retry: RETRY,
  rateLimit: RATE_LIMITS,
  rateLimitSafetyMs: RATE_LIMIT_SAFETY_MS,
  token: TOKEN_DEFAULTS,
  logLevel: LOG_LEVEL,
  /**
   * A released lease (a channel held by a hook, a live binding) is let go this much later, and a new
   * lease meanwhile keeps it: React StrictMode's mount–unmount–mount neither resubscribes nor loses anything.
   */
  leaseReleaseMs: LEASE_RELEASE_MS,
  liveRefetchMs: LIVE_REFETCH_MS,
  /** The most pages the SDK reads of one list by itself (`messenger(client, { maxPages })`). */
  maxPages: MAX_PAGES,
  /** `messenger(client)`: how long an agent shows as typing without a new `typing` push. */
  typingTimeoutMs: TYPING_TIMEOUT_MS,
  /** `messenger(client).helpSearch()`: the pause after the last keystroke before a search is sent. */
  helpSearchDebounceMs: HELP_SEARCH_DEBOUNCE_MS,
  /** The resource cache (docs/cache.md): `CACHE_DEFAULTS` of `@tandem/core/cache`. */
  cache: CACHE_DEFAULTS,
  /** The saved cache and the durable outbox (docs/persist.md): `PERSIST_DEFAULTS` of `@tandem/core/persist`. */
  persist: PERSIST_DEFAULTS,
  /** `createAutocomplete` (docs/services/maps.md, "Autocomplete"): `AUTOCOMPLETE_DEFAULTS` of `@tandem/core/maps`. */
  autocomplete: AUTOCOMPLETE_DEFAULTS,
} as const
