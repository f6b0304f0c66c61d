// What the tabs of one app say to each other on their BroadcastChannel (docs/realtime.md, "One
// connection for all tabs"). `s` is a tab socket's id (`<tab>:<n>`), `l` the leading tab's id.
// The frames a tab's client sends and receives travel as the same JSON text the service speaks.

export type TabMessage =
  /** I lead now: on election, and in answer to `who`. */
  | { k: 'leader'; l: string }
  /** A new tab asks who leads. */
  | { k: 'who' }
  /** The leader is going (its page is hidden or stopped). */
  | { k: 'bye'; l: string }
  /** A follower's socket asks to open; `e`: the channels its tab is present on (the leader counts them). */
  | { k: 'open'; s: string; t: string; e: string[] }
  | { k: 'opened'; s: string; l: string }
  /** A frame from socket `s` to the leader. */
  | { k: 'up'; s: string; d: string }
  /** A frame from the service to these sockets: posted once, whatever the number of tabs. */
  | { k: 'down'; to: string[]; d: string }
  /** The leader closed these sockets (the service's close, or a handover). */
  | { k: 'shut'; to: string[]; c: number; r: string }
  /** A follower closed its socket. */
  | { k: 'close'; s: string; r: string }
  /** The service's connection id, for the next leader's resume. */
  | { k: 'conn'; c: string }
  /** The channels tab `t` is present on (posted when they change, and in answer to `who`). */
  | { k: 'present'; t: string; e: string[] }
  /** A follower asks the leader's token provider; `stale`: a token it must not be given again. */
  | { k: 'token'; q: string; stale?: string | undefined }
  | { k: 'tokened'; q: string; token?: string; code?: string; message?: string }

/** The two browser APIs the sharing runs on: a page's, or stand-ins (tests, other runtimes). */
export interface LockManagerLike {
  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<unknown>
}

export interface BroadcastChannelLike {
  postMessage(message: unknown): void
  close(): void
  onmessage: ((event: { data: unknown }) => void) | null
}

export type BroadcastChannelConstructor = new (name: string) => BroadcastChannelLike

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

/** A close the service never sends: the tabs' own (closeAction reads `code` from the JSON reason). */
export const HANDOVER_CLOSE = 1012
export const closeReason = (code: string): string => JSON.stringify({ code })
