import { AUTOCOMPLETE_LIMIT } from '@tandem/contract'

// `createAutocomplete`'s defaults (docs/services/maps.md, "Autocomplete"), with it: an app that
// never autocompletes does not ship them. `DEFAULTS.autocomplete` of @tandem/core is this object.
export const AUTOCOMPLETE_DEFAULTS = {
  /** The pause in typing before a request goes. */
  debounceMs: 200,
  /** Letters and digits of words (a house number does not count) before anything is asked. */
  minChars: 3,
  limit: AUTOCOMPLETE_LIMIT.default,
  /** Answers kept, by input (folded words and house number): backspacing asks nothing again. */
  cacheSize: 50,
  /**
   * A failed input (an error, or an answer that is not the contract's) is not asked again, nor are
   * the inputs that extend it, for `baseMs`, then twice as long after each further failure, up to
   * `maxMs`: typing on shows the error and sends nothing meanwhile.
   */
  failureBackoff: { baseMs: 1_000, maxMs: 30_000 },
  /** When the maps quota runs low, ask less (the snapshot's `degraded`). */
  quota: {
    /** Less than this share of the plan left, or a request waiting for its slot: `slower`. */
    slowerBelow: 0.25,
    /** `slower` multiplies the debounce by this. */
    slowerFactor: 3,
    /** Fewer requests than this left, or a slot further away than `pausedWaitMs`: `paused`. */
    pausedBelow: 3,
    pausedWaitMs: 2_000,
    /** `paused`: one request once the typing has paused this long; until then, only what is known. */
    pauseMs: 1_000,
  },
} as const
