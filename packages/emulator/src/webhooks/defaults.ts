// Every tunable default of the emulator's webhook sender, in one place.
export const WEBHOOK_DEFAULTS = {
  /** Wait before each retry; the last delay used, the event is `failed`. 1 s, 5 s, 30 s, 2 min, 10 min. */
  retryDelaysMs: [1_000, 5_000, 30_000, 120_000, 600_000] as readonly number[],
  /** Per attempt, connect to response headers. */
  timeoutMs: 5_000,
  /** More retries than this is a misconfiguration, not a test. */
  maxRetries: 20,
  /** Delivery log size, like the access log. */
  logSize: 1_000,
  /** Events waiting per endpoint; past this a dead receiver would grow memory without bound. */
  maxQueuePerEndpoint: 1_000,
  /** `waitFor` gives up after this; every wait in a test must be bounded. */
  waitForTimeoutMs: 5_000,
  userAgent: 'tandem-emulator',
  secretPrefix: 'whsec_',
  endpointIdPrefix: 'we_',
  eventIdPrefix: 'evt_',
} as const

/** The events the services send. Endpoints may also filter on `'*'` or a prefix like `'channel.*'`. */
export const WEBHOOK_EVENT_TYPES = [
  'conversation.created',
  'conversation.updated',
  'thread.created',
  'channel.occupied',
  'channel.vacated',
  'message.published',
] as const
