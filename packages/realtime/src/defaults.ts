import { HISTORY_MAX, MAX_MESSAGE_BYTES, MAX_SUBSCRIBE_CHANNELS } from '@tandem/contract'
import { REFRESH_MARGIN_MS, REFRESH_MARGIN_RATIO } from './connection/refresh-margin.js'
import { LEASE_RELEASE_MS } from './core.js'
import { RESOURCE_PRESENCE } from './resource-presence/defaults.js'

// Every default of @tandem/realtime, in one place (docs/protocol.md gives the numbers). Each is its
// own constant so that a bundle keeps only those it uses (by a short name); DEFAULTS gathers them
// all for the public API. One derived from another package's value (a field of an import, which a
// bundler must keep wherever its file is) has a file of its own, re-exported here: a bundle without
// its reader (nor DEFAULTS) drops it with its file.

/** Appended to the realtime service base URL. */
export const WS_PATH = '/v1/ws'
/** Full jitter; the attempt count resets once a connection has stayed up for `stableMs`. */
export const BACKOFF = { baseMs: 500, capMs: 20_000, stableMs: 10_000, serverMaxMs: 300_000 } as const
/** WebSocket open, then open → `connected`: a link that cannot finish either is dead. */
export const OPEN_TIMEOUT_MS = 10_000
export const HANDSHAKE_TIMEOUT_MS = 10_000
/** history, presence, subscribe replies, counted from the send. */
export const REQUEST_TIMEOUT_MS = 15_000
/** A publish's ack, counted from the send (each resend after a reconnect starts it again). */
export const PUBLISH_TIMEOUT_MS = 10_000
/**
 * How long an app request may wait for a connection, from the call: minutes, so that a publish
 * made offline goes out when the connection is back, and still says so if it never comes.
 */
export const QUEUE_TIMEOUT_MS = 300_000
/** Attempts in a row that never reached `connected`, with no success ever: then an `unreachable` error (retries go on). */
export const UNREACHABLE_AFTER = 5
/** The service takes at most this many channels in one subscribe frame. */
export const MAX_CHANNELS_PER_FRAME = MAX_SUBSCRIBE_CHANNELS
/** Requests waiting for a connection; the oldest is dropped beyond this. */
export const MAX_QUEUED = 100
/**
 * Live messages held, across the client, while channels (re)subscribe or fill a gap from history;
 * past either bound they are dropped and read from history afterwards. `maxBytes` counts frame characters.
 */
export const HELD = { max: 10_000, maxBytes: 8 * 2 ** 20 } as const
/**
 * A gap's history read is tried this many times in all, with the client's backoff between
 * (`backoff`: up to 0.5, 1, 2, 4 s by default); then the channel reports a `history_unavailable` discontinuity.
 */
export const FILL_ATTEMPTS = 5
/** The server's limit until `connected` announces it. */
export { MAX_MESSAGE_BYTES }
/** Server frames can legitimately exceed maxMessageBytes (subscribe replies carry `missed`). */
export const MAX_INBOUND_CHARS = 2 ** 24 // 16 MiB
/** The heartbeat a server announces is held within these (a 0 would make every tick a dead link). */
export const HEARTBEAT = { minMs: 100, maxMs: 300_000, defaultMs: 15_000 } as const
/** Heartbeat grace is min(this, heartbeatMs). */
export const MAX_GRACE_MS = 10_000
/** The in-band refresh's margin: core's token provider's rule (connection/refresh-margin.ts). */
export { REFRESH_MARGIN_MS, REFRESH_MARGIN_RATIO }
/** After a failed in-band refresh; the server's 4100 close is the backstop. */
export const REFRESH_RETRY_MS = 5_000
/** A presence store's failed sync is tried again up to 1 s, 2 s, 4 s … later (jittered down to half), never more than this apart. */
export const PRESENCE_RETRY_CAP_MS = 30_000
/**
 * A released lease (`leaseChannel`, live bindings) is let go this much later, and a new lease
 * meanwhile keeps it: React StrictMode's mount–unmount–mount (and a component that moves)
 * neither resubscribes nor drops a message.
 */
export { LEASE_RELEASE_MS }
/**
 * `createMessageLog`: the newest `initial` from history on join, at most `max` held, pages of at most
 * `maxPage` (the service's history limit), held in chunks of `chunk` (what one append copies at most).
 */
export const MESSAGE_LOG = { initial: 50, max: 10_000, maxPage: HISTORY_MAX, chunk: 16 } as const
/** `resourcePresence`'s pace and typing lapse (resource-presence/defaults.ts). */
export { RESOURCE_PRESENCE }

export const DEFAULTS = {
  path: WS_PATH,
  backoff: BACKOFF,
  openTimeoutMs: OPEN_TIMEOUT_MS,
  handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  publishTimeoutMs: PUBLISH_TIMEOUT_MS,
  queueTimeoutMs: QUEUE_TIMEOUT_MS,
  unreachableAfter: UNREACHABLE_AFTER,
  maxChannelsPerFrame: MAX_CHANNELS_PER_FRAME,
  maxQueued: MAX_QUEUED,
  held: HELD,
  fillAttempts: FILL_ATTEMPTS,
  maxMessageBytes: MAX_MESSAGE_BYTES,
  maxInboundChars: MAX_INBOUND_CHARS,
  maxGraceMs: MAX_GRACE_MS,
  heartbeat: HEARTBEAT,
  refreshMarginMs: REFRESH_MARGIN_MS,
  refreshMarginRatio: REFRESH_MARGIN_RATIO,
  refreshRetryMs: REFRESH_RETRY_MS,
  presenceRetryCapMs: PRESENCE_RETRY_CAP_MS,
  leaseReleaseMs: LEASE_RELEASE_MS,
  messageLog: MESSAGE_LOG,
  resourcePresence: RESOURCE_PRESENCE,
} as const
