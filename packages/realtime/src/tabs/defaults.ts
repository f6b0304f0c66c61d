/** Every default of the tabs entry. */
export const TABS_DEFAULTS = {
  /** How long a tab socket waits for a leader to take it before it reports `no_leader` (its client retries). */
  openWaitMs: 2_000,
  /** How long a follower waits for the leader's token (an election included). */
  tokenWaitMs: 10_000,
  /**
   * A tab that left (closed, reloaded) or died stays present this long: a reloaded page that
   * enters again within it causes no leave, as the service's own grace does for a socket.
   */
  leftTabGraceMs: 5_000,
} as const
