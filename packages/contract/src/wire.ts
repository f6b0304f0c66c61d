// The wire rules every package shares: the SDK checks input with them, the emulator enforces
// them, and the spec (src/spec) states them. Each is written here once.

export type ServiceName = 'maps' | 'support' | 'realtime'
export const SERVICES: readonly ServiceName[] = ['maps', 'support', 'realtime']

/** Channel names: 1–200 of `[A-Za-z0-9_:.@-]`, and not `.` or `..` (a URL would resolve those away over REST). */
export const CHANNEL_NAME = /^(?!\.\.?$)[\w:.@-]{1,200}$/
/** The rule in words, for error messages. */
export const CHANNEL_NAME_RULE = 'must be 1-200 characters of A-Z a-z 0-9 _ : . @ - (not "." or "..")'
export const isChannelName = (value: unknown): value is string => typeof value === 'string' && CHANNEL_NAME.test(value)

/**
 * An `Idempotency-Key` (the REST header and a `publish` frame's `idempotencyKey`): 1–255
 * (`MAX_IDEMPOTENCY_KEY`) printable ASCII characters, space excluded. A literal, so that a bundler
 * can drop it where unused; a test holds its bound equal to `MAX_IDEMPOTENCY_KEY`.
 */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/
/** The rule in words, for error messages. */
export const IDEMPOTENCY_KEY_RULE = 'must be 1-255 printable ASCII characters, no space'
export const isIdempotencyKey = (value: unknown): value is string =>
  typeof value === 'string' && IDEMPOTENCY_KEY.test(value)

/**
 * The POSTs that change nothing: questions with a body (a geocode, a route, an address check), as
 * `<service> <path under the service>`. A durable outbox does not keep them (asked offline, they
 * fail as any read does). The OpenAPI document marks each with `x-tandem-query`; a test holds the two equal.
 */
export const QUERY_POSTS: readonly string[] = [
  'maps /v1/geocode',
  'maps /v1/routes:compute',
  'maps /v1/addresses:validate',
] // an array literal, not a Set: a bundler drops it where unused

/**
 * Query parameters that carry a credential. None may appear in a URL the SDK is given (a base
 * URL, the token endpoint, the realtime URL): a key or token in a URL is written to access logs,
 * browser history and Referer headers, and a raw key in a browser is exactly what tokens are for.
 * Names compare lowercase with `-` and `_` left out, so `api_key`, `API-Key` and `apiKey` are all
 * `apikey`, and `access_token` is `accesstoken`.
 */
export const CREDENTIAL_PARAMS = ['key', 'apikey', 'secret', 'clientsecret', 'token', 'accesstoken'] as const
export const isCredentialParam = (name: string): boolean =>
  (CREDENTIAL_PARAMS as readonly string[]).includes(name.toLowerCase().replace(/[-_]/g, ''))

// Sizes and counts the services enforce (docs/services/*.md, docs/protocol.md). Each is a
// top-level constant, so a bundler inlines the ones a package uses (a number, not an object
// lookup); `LIMITS` groups them for readers and for the spec.
export const PAGE_MIN = 1
export const PAGE_MAX = 100
export const PAGE_DEFAULT = 20
export const HISTORY_MIN = 1
export const HISTORY_MAX = 1000
export const HISTORY_DEFAULT = 100
export const MAX_ID = 200
export const MAX_EMAIL = 254
export const MAX_QUERY = 200
export const MAX_SUBJECT = 255
export const MAX_TEXT = 50_000
export const MAX_PERSON_NAME = 200
export const MAX_TAGS = 20
export const MAX_TAG = 50
export const MAX_EVENT_NAME = 200
export const MAX_WAYPOINTS = 25
export const MAX_ADDRESS_LINES = 5
export const MAX_ADDRESS_LINE = 200
export const MAX_POSTAL_CODE = 20
export const MAX_RADIUS_METERS = 1_000_000
export const ZOOM_MIN = 0
export const ZOOM_MAX = 20
/** A latitude is -LAT_MAX to LAT_MAX degrees, a longitude -LNG_MAX to LNG_MAX. */
export const LAT_MAX = 90
export const LNG_MAX = 180
export const MAX_IDEMPOTENCY_KEY = 255
export const MAX_SUBSCRIBE_CHANNELS = 1000
export const MAX_MESSAGE_BYTES = 65_536
export const MAX_RESOURCE_NAME = 200

// What one realtime connection may hold and send (docs/protocol.md, "Limits"): the service refuses
// past these, so no one socket can grow the service's memory or fan out without end.
/** Channels one connection may be subscribed to at once (a `subscribe` past it: `limit_reached` for the extra channels). */
export const MAX_CONNECTION_SUBSCRIPTIONS = 1000
/** Channels where one connection may be a presence member at once. */
export const MAX_CONNECTION_PRESENCE = 100
/** Presence members one channel holds (an enter past it: `limit_reached`). */
export const MAX_PRESENCE_MEMBERS = 1000
/** A member's `data`, serialised: at most this many bytes (`message_too_large`). */
export const MAX_MEMBER_DATA_BYTES = 16_384
/**
 * Presence writes (`presence.enter`, `presence.update`) per connection: a bucket of `burst`
 * refilled at `limit` per `intervalMs`, apart from the publish bucket. A write past it is refused
 * `rate_limited` (temporary, with `retryAfterMs`); refusals in a row close the socket 4290, as for publishes.
 */
export const PRESENCE_RATE = { limit: 10, intervalMs: 1000, burst: 20 } as const
/** Publishes per connection: the same kind of bucket (the emulator's default; a plan may differ). */
export const PUBLISH_RATE = { limit: 100, intervalMs: 1000, burst: 200 } as const
/**
 * `limit` of a place autocomplete (its `input` is at most `MAX_QUERY`): few rows, each a keystroke's
 * answer. Not in LIMITS: every app that reads LIMITS would carry it.
 */
export const AUTOCOMPLETE_LIMIT = { min: 1, max: 10, default: 5 } as const

export const LIMITS = {
  /** `limit` of every REST list. */
  page: { min: PAGE_MIN, max: PAGE_MAX, default: PAGE_DEFAULT },
  /** `limit` of a history read. */
  history: { min: HISTORY_MIN, max: HISTORY_MAX, default: HISTORY_DEFAULT },
  /** Channels in one `subscribe` frame. */
  subscribeChannels: MAX_SUBSCRIBE_CHANNELS,
  /** The default `maxMessageBytes` a socket announces. */
  maxMessageBytes: MAX_MESSAGE_BYTES,
  /** An event name. */
  eventName: MAX_EVENT_NAME,
  /** An `Idempotency-Key` (printable ASCII, no space: `IDEMPOTENCY_KEY`). */
  idempotencyKey: MAX_IDEMPOTENCY_KEY,
  /** An id sent as a field or filter (`mailboxId`, `assigneeId`). */
  id: MAX_ID,
  email: MAX_EMAIL,
  /** A resource's name. */
  resourceName: MAX_RESOURCE_NAME,
  /** Free-text search (`query`) and channel list `prefix`. */
  query: MAX_QUERY,
  subject: MAX_SUBJECT,
  text: MAX_TEXT,
  personName: MAX_PERSON_NAME,
  tags: MAX_TAGS,
  tag: MAX_TAG,
  /** Route stops between origin and destination. */
  waypoints: MAX_WAYPOINTS,
  /** Address lines of one address. */
  addressLines: MAX_ADDRESS_LINES,
  addressLine: MAX_ADDRESS_LINE,
  postalCode: MAX_POSTAL_CODE,
  geocodeResults: 5,
  placesRadiusMeters: { default: 50_000, max: MAX_RADIUS_METERS },
  zoom: { min: ZOOM_MIN, max: ZOOM_MAX },
} as const

export const CONVERSATION_STATUSES = ['active', 'pending', 'closed'] as const
export const TRAVEL_MODES = ['drive', 'walk', 'bicycle'] as const
export const PLACE_TYPES = ['city', 'capital'] as const

/** Requests per window of the default plan, per service (DESIGN.md §1: 100/min maps, 500/min support). */
export const PLANS: Readonly<Record<ServiceName, { limit: number; intervalMs: number }>> = {
  maps: { limit: 100, intervalMs: 60_000 },
  support: { limit: 500, intervalMs: 60_000 },
  realtime: { limit: 600, intervalMs: 60_000 },
}

/**
 * What a customer token (`support:customer`) may ask, per customer and service, BEFORE the app's
 * plan: each request takes from the customer's own bucket first, then from the app's. So one
 * customer's burst is refused on its own bucket and never spends what the agents share.
 */
export const CUSTOMER_PLAN = { limit: 60, intervalMs: 60_000 } as const

/** The bucket a rate limit answer describes: the app's plan, or one customer's own. */
export type RateLimitBucket = 'app' | 'customer'
export const RATE_LIMIT_BUCKETS: readonly RateLimitBucket[] = ['app', 'customer']

/**
 * The rate limit headers of every REST answer. `RateLimit-*` describe the bucket `bucket` names
 * (the one closer to empty, which is the one a 429 came from); a 429 also has `Retry-After`
 * (seconds) and names the bucket in `error.details[0].bucket`.
 */
export const RATE_LIMIT_HEADERS = {
  limit: 'RateLimit-Limit',
  remaining: 'RateLimit-Remaining',
  reset: 'RateLimit-Reset',
  bucket: 'Tandem-RateLimit-Bucket',
  retryAfter: 'Retry-After',
} as const

/**
 * A token bucket's level after `elapsedMs` of continuous refill at `perMs` tokens per ms, capped
 * at `capacity`: the service's buckets, the emulator's and the SDK's client-side mirror all
 * refill by this one rule, so the client never sends what the service would refuse.
 */
export const refill = (tokens: number, capacity: number, elapsedMs: number, perMs: number): number =>
  elapsedMs > 0 ? Math.min(capacity, tokens + elapsedMs * perMs) : tokens

/** How long until the bucket holds `needed` tokens (ms; 0 when it already does). */
export const msUntil = (tokens: number, needed: number, perMs: number): number =>
  tokens >= needed ? 0 : (needed - tokens) / perMs

/** Close codes of the realtime socket (docs/protocol.md): 40xx fatal, 41xx re-authenticate, 42xx reconnect. */
export const CLOSE = {
  protocol_error: 4000,
  forbidden: 4003,
  frame_too_large: 4009,
  token_expired: 4100,
  token_invalid: 4101,
  token_revoked: 4102,
  server_restart: 4200,
  connection_dropped: 4201,
  handshake_timeout: 4203,
  rate_limited: 4290,
} as const
export type CloseName = keyof typeof CLOSE
export type CloseCode = (typeof CLOSE)[CloseName]

/** What a close asks of a client: `fatal` stop (4000–4099), `reauth` a new token (4100–4199), else `retry` (reconnect). */
export type CloseClass = 'fatal' | 'reauth' | 'retry'
export const closeClass = (code: number): CloseClass =>
  code < 4000 || code >= 4200 ? 'retry' : code < 4100 ? 'fatal' : 'reauth'

/** A close code's name (`4100` → `token_expired`), or undefined for a code the protocol does not name. */
export const closeName = (code: number): CloseName | undefined =>
  (Object.keys(CLOSE) as CloseName[]).find((name) => CLOSE[name] === code)

/** Error codes a REST answer may carry (`error.code`); clients must still accept codes not listed. */
export const API_ERROR_CODES = [
  'invalid_parameter',
  'invalid_cursor',
  'invalid_body',
  'invalid_json',
  'invalid_channel',
  'unauthorized',
  'token_expired',
  'token_invalid',
  'insufficient_scope',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'message_too_large',
  'unsupported_media_type',
  'invalid_transition',
  'unknown_assignee',
  'unknown_mailbox',
  'unknown_region',
  'route_not_found',
  'idempotency_key_reused',
  'rate_limited',
  'internal_error',
  'push_subscription_not_found',
  'push_not_allowed',
  'upload_too_large',
  'upload_type_not_allowed',
  'upload_type_mismatch',
  'upload_quota_exceeded',
  'upload_not_found',
  'upload_incomplete',
  'too_many_files',
] as const
export type ApiErrorCode = (typeof API_ERROR_CODES)[number]

/** Error codes of the realtime socket (`error.code` of an `error` frame). */
export const REALTIME_ERROR_CODES = [
  'bad_request',
  'invalid_channel',
  'forbidden',
  'not_subscribed',
  'message_too_large',
  'rate_limited',
  'token_invalid',
  'limit_reached',
  'internal',
] as const
export type RealtimeErrorCode = (typeof REALTIME_ERROR_CODES)[number]
