import type { LatLng } from '@tandem/contract'
import type { TandemError } from '../../../errors.js'
import type { Unsubscribe } from '../../../types.js'
import type { AddressValidation, Place, PlaceSuggestion } from '../types.js'

/** Where the store is: `debouncing` waits for a pause in typing, `loading` for the service. */
export type AutocompleteStatus = 'idle' | 'debouncing' | 'loading' | 'success' | 'error'

/**
 * Autocomplete asks less because of the maps quota: `budget` (few requests left this window) or
 * `queue` (requests wait for their slot); `slower` (a longer debounce) or `paused` (one request per
 * pause in typing, what is known shown meanwhile). A UI says "keep typing".
 */
export interface Degraded {
  reason: 'queue' | 'budget'
  mode: 'slower' | 'paused'
}

export interface AutocompleteSnapshot {
  status: AutocompleteStatus
  /** The text as given to `setQuery`. */
  query: string
  /**
   * For `query` when `success`; while `debouncing` or `loading`, the last ones that still match
   * (narrowed as the user types on), else none.
   */
  suggestions: PlaceSuggestion[]
  /**
   * Why the last request for `query` (or an input it extends) failed (`status: 'error'`): an `ApiError`
   * `bad_response` for an answer that is not the contract's, a `RateLimitError` carries `retryAfterMs`.
   */
  error: TandemError | null
  degraded: Degraded | null
}

/** When the quota makes autocomplete ask less (`AUTOCOMPLETE_DEFAULTS.quota`). */
export interface AutocompleteQuota {
  slowerBelow: number
  slowerFactor: number
  pausedBelow: number
  pausedWaitMs: number
  pauseMs: number
}

export interface AutocompleteOptions {
  /**
   * The pause in typing before a request goes, in ms.
   * @default 200
   */
  debounceMs?: number
  /**
   * Letters and digits (not counting a leading house number) before anything is asked.
   * @default 3
   */
  minChars?: number
  /**
   * Suggestions per answer, 1 to 10.
   * @default 5
   */
  limit?: number
  /** Rank by distance from this point (the map's center, the user's position). */
  near?: LatLng
  /**
   * Answers kept (least recently used dropped first); 0 keeps none.
   * @default 50
   */
  cacheSize?: number
  /** When the quota slows or pauses asking; each field defaults to `AUTOCOMPLETE_DEFAULTS.quota`'s. */
  quota?: Partial<AutocompleteQuota>
  /**
   * How long a failed input (and every input that extends it) is not asked again: `baseMs` after
   * its first failure, doubling after each further one up to `maxMs`. Meanwhile the store shows the
   * error (`status: 'error'`) and sends nothing; the next `setQuery` after it asks once.
   * @default { baseMs: 1000, maxMs: 30000 }
   */
  failureBackoff?: { baseMs?: number; maxMs?: number }
}

/** A chosen suggestion: its place, and for a street or an address the service's check of it. */
export interface AutocompleteSelection {
  place: Place
  /** `null` for a city. */
  validation: AddressValidation | null
}

/** A store of suggestions as the user types (`useSyncExternalStore`, or any UI). */
export interface Autocomplete {
  /** While anyone is subscribed, the store follows the maps quota (the client's `rateLimit` events). */
  subscribe: (listener: () => void) => Unsubscribe
  /** The same object until something changes. */
  getSnapshot: () => AutocompleteSnapshot
  /** The text as typed: suggestions follow, asked for only when nothing known answers it. */
  setQuery: (text: string) => void
  /**
   * The suggestion's place (one geocode) and, for a street or an address, its validated address
   * (one more request): 1 request for a city, 2 for an address. The list closes: `query` becomes its text.
   */
  select: (suggestion: PlaceSuggestion) => Promise<AutocompleteSelection>
  /**
   * Back to idle, cancelling what is pending (the debounce, the request in flight); what was
   * learned stays cached. With no subscriber left, nothing of the store runs after it.
   */
  clear: () => void
  /** Stops timers, aborts what is in flight, stops listening to the client; `setQuery` then does nothing. */
  destroy: () => void
}
