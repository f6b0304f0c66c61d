// The devtools' defaults, in one place.
export const DEFAULTS = {
  /** What `defineDevtools()` registers. */
  tagName: 'tandem-devtools',
  /** Calls kept by the recorder (one row per call, whatever its attempts). */
  maxRequests: 200,
  /** Realtime frames kept, in and out. */
  maxFrames: 200,
  /** Connection states, realtime errors and tab roles kept. */
  maxTimeline: 100,
  /** Token refreshes and token errors kept. */
  maxTokenEvents: 50,
  /** Rate-limit waits kept (the last waits of the Rate limits tab). */
  maxRateLimitWaits: 50,
  /** A frame's JSON is kept up to this many characters: memory stays bounded whatever is sent. */
  maxFrameChars: 2_000,
  /** Redaction reads this much past the cut, so a token that straddles it is still found whole. */
  redactMarginChars: 2_048,
  /** The Cache, Channels and Rate limits tabs refresh this often while visible (observer counts have no event). */
  tickMs: 1_000,
  /** Below this viewport width the panel fills the screen (a CSS constant in panel/styles.ts). */
  narrowPx: 480,
} as const
