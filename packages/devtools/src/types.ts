// What the devtools read (the public sources of a Tandem app) and what they record of them.
import type { Client, HttpMethod, RateLimitBucket, ServiceName, Unsubscribe } from '@tandem/core'
import type { CachePersister, DurableOutbox } from '@tandem/core/persist'
import type { ConnectionState, Realtime } from '@tandem/realtime'
import type { TabRole, TabShare } from '@tandem/realtime/tabs'
import type { DevtoolsStrings } from './strings.js'

/** `shareAcrossTabs({ key })`, as far as the devtools read it. */
export type DevtoolsTabs = Pick<TabShare, 'tabId' | 'role' | 'leader' | 'key' | 'on'>

/** Each is optional: a tab whose source is not given shows nothing. */
export interface DevtoolsSources {
  /** `createClient(…)`: requests, retries, rate-limit waits, token refreshes, and the cache (`getCache(client)`). */
  client?: Client
  /** `createRealtime(…)`: states, errors, frames (`watchFrames` of @tandem/realtime/debug) and channels. */
  realtime?: Realtime
  /** `shareAcrossTabs({ key })`: this tab's role in the shared connection. */
  tabs?: DevtoolsTabs
  /** `durableOutbox({ key })`: adds the Outbox tab. */
  outbox?: DurableOutbox
  /** `persistCache(…)`: adds the Saved cache tab. */
  persister?: CachePersister
}

/**
 * The Actions toolbar: a button per action given. Each resolves with the text to show (in the
 * panel's polite status line), or nothing for a plain "done"; a rejection shows its message.
 * `emulatorActions({ user })` gives both against the emulator's dev controls.
 */
export interface DevtoolsActions {
  /** Cut the realtime connection the way a network drop would. */
  dropConnection?: () => Promise<string | void>
  /** Make the current token invalid, so the client must fetch a new one. */
  expireToken?: () => Promise<string | void>
}

export interface DevtoolsOptions extends DevtoolsSources {
  /**
   * A recorder the app made early (`createDevtoolsRecorder`, before its first request), so the
   * panel shows the page from its start. The devtools show it and never stop it: the app owns it.
   * Without one they make their own, stopped when they go.
   */
  recorder?: DevtoolsRecorder
  actions?: DevtoolsActions
  /** Any subset of `DEFAULT_STRINGS`; the rest stay English. */
  strings?: Partial<DevtoolsStrings>
}

// ---- What the recorder keeps ---------------------------------------------------

/** An error as shown: never the error object (its cause, its options), its message redacted. */
export interface ErrorInfo {
  name: string
  code: string | undefined
  message: string
}

export interface RequestAttempt {
  attempt: number
  status: number | undefined
  errorCode: string | undefined
  requestId: string | undefined
  durationMs: number
  /** Set when this attempt was retried: why, and how long the call waited before the next. */
  retry: { reason: string; delayMs: number } | undefined
}

/** `retrying`: a retry is scheduled; `done`: the last attempt's outcome is the call's. */
export type RequestState = 'retrying' | 'done'

/** One call (`client.request` and every helper over it), whatever its attempts: grouped by `callId`. */
export interface RequestRow {
  callId: number
  service: ServiceName
  method: HttpMethod
  /** `/maps/v1/geocode`: the service, then the path; never the query. */
  path: string
  state: RequestState
  /** The last attempt's HTTP status, when it had one. */
  status: number | undefined
  /** The last attempt's error code, when it failed without an answer (`network_error`, `timeout`, `aborted`). */
  errorCode: string | undefined
  /** The last answer's `X-Request-Id`. */
  requestId: string | undefined
  attempts: readonly RequestAttempt[]
  /** Each wait for a rate-limit slot, before an attempt. */
  rateLimitWaits: readonly { waitMs: number; reason: 'retry-after' | 'bucket' }[]
  /** ms since epoch: when the call started (its first wait or attempt). */
  startedAt: number
  /** From the start to the last event: waits, attempts and the delays between them. */
  durationMs: number
}

export interface FrameRow {
  /** Counts frames from 1: a stable key. */
  seq: number
  direction: 'in' | 'out'
  type: string
  channel: string | undefined
  /** Its length on the wire, in characters. */
  size: number
  at: number
  /** The frame's JSON, token-redacted, cut at `maxFrameChars`. */
  text: string
  truncated: boolean
}

export type TimelineRow =
  /** The first row: the state when recording started, so a late start is not read as the beginning. */
  | { kind: 'start'; seq: number; at: number; state: ConnectionState; connectionId: string | undefined }
  | {
      kind: 'state'
      seq: number
      at: number
      previous: ConnectionState
      current: ConnectionState
      reason: string | undefined
      retryInMs: number | undefined
      error: ErrorInfo | undefined
    }
  | { kind: 'error'; seq: number; at: number; error: ErrorInfo }
  | { kind: 'role'; seq: number; at: number; role: TabRole; leader: string | undefined }

/** A token arrived (never the token itself: when it expires), or fetching one failed. */
export type TokenRow =
  | { kind: 'token'; seq: number; at: number; expiresAt: number; expiresIn: number }
  | { kind: 'error'; seq: number; at: number; error: ErrorInfo }

/** A service's rate-limit queue now (`watchRateLimit`). */
export interface RateLimitRow {
  service: ServiceName
  queued: number
  waitMs: number
  /** When the last wait ends (ms since epoch; 0 when nothing waits). */
  until: number
  /** Whose quota the bucket follows: `customer` (a customer token's own) or `app`. */
  bucket: RateLimitBucket
}

export interface RateLimitWaitRow {
  seq: number
  at: number
  callId: number
  service: ServiceName
  waitMs: number
  queued: number
  reason: 'retry-after' | 'bucket'
}

/** Everything seen since the start (or `clear()`), kept or not: the rings keep only the newest. */
export interface DevtoolsTotals {
  requests: number
  frames: number
  timeline: number
  tokens: number
  rateLimitWaits: number
}

/** Immutable: a new object (and new arrays for what changed) after each change. Newest first. */
export interface DevtoolsSnapshot {
  requests: readonly RequestRow[]
  frames: readonly FrameRow[]
  timeline: readonly TimelineRow[]
  tokens: readonly TokenRow[]
  rateLimits: readonly RateLimitRow[]
  rateLimitWaits: readonly RateLimitWaitRow[]
  totals: Readonly<DevtoolsTotals>
}

export interface DevtoolsRecorderOptions {
  /** @default DEFAULTS.maxRequests (200) */
  maxRequests?: number
  /** @default DEFAULTS.maxFrames (200) */
  maxFrames?: number
  /** @default DEFAULTS.maxTimeline (100) */
  maxTimeline?: number
  /** @default DEFAULTS.maxTokenEvents (50) */
  maxTokenEvents?: number
  /** @default DEFAULTS.maxRateLimitWaits (50) */
  maxRateLimitWaits?: number
  /** @default DEFAULTS.maxFrameChars (2,000) */
  maxFrameChars?: number
  /** The clock (tests). @default Date.now */
  now?: () => number
}

/** Store-shaped (`useSyncExternalStore(recorder.subscribe, recorder.getSnapshot)`). */
export interface DevtoolsRecorder {
  /** The same object until something is recorded. */
  getSnapshot(): DevtoolsSnapshot
  /** Listeners are told once per burst of events (a microtask later), not once per event. */
  subscribe(listener: () => void): Unsubscribe
  /** Forgets what was recorded (the rate-limit queues stay: they are the present, not history). */
  clear(): void
  /** Unsubscribes from every source; what was recorded stays readable. */
  stop(): void
}
