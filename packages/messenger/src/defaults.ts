// The messenger's defaults, in one place.
export const DEFAULTS = {
  /** What `defineMessenger()` registers. */
  tagName: 'tandem-messenger',
  /** Drafts are kept in sessionStorage under keys with this prefix (and removed by `shutdown()`). */
  storagePrefix: 'tandem-messenger:',
  /** Help-centre results per search. */
  searchLimit: 8,
  /** Below this viewport width the panel fills the screen. */
  narrowPx: 480,
} as const
