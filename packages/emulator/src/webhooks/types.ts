// Public types of the webhook sender, apart from the code so every file can import them.

/** What a service hands to `dispatch`. */
export interface WebhookEvent {
  /** e.g. 'conversation.created', 'channel.occupied'. */
  type: string
  data: unknown
}

export type WebhookEventType =
  | 'conversation.created'
  | 'conversation.updated'
  | 'thread.created'
  | 'channel.occupied'
  | 'channel.vacated'
  | 'message.published'

/** The JSON body POSTed to an endpoint; identical on every attempt. */
export interface WebhookPayload {
  /** `evt_…`: the receiver's dedupe key. */
  id: string
  type: string
  /** ISO 8601, when the event was dispatched. */
  createdAt: string
  appId: string
  data: unknown
}

export interface WebhookEndpointOptions {
  /** http(s) only. */
  url: string
  /** Default: the emulator's first app. */
  appId?: string
  /** Event types, `'*'` or a prefix like `'channel.*'`; default all. */
  events?: string[]
  /** Default: a generated `whsec_…`. */
  secret?: string
}

export interface WebhookOptions {
  /** Endpoints present from the start; `reset()` keeps them. */
  endpoints?: WebhookEndpointOptions[]
  /**
   * Wait before each retry. Tests pass short ones.
   * @default [1000, 5000, 30_000, 120_000, 600_000]
   */
  retryDelaysMs?: number[]
  /**
   * Per attempt, in ms.
   * @default 5000
   */
  timeoutMs?: number
}

export interface WebhookEndpoint {
  id: string
  url: string
  appId: string
  events: readonly string[]
  /** The signing secret (local and test-only; it never appears in the delivery log). */
  secret: string
  /** From `options.webhooks.endpoints` (kept by `reset()`) or `register()` (dropped). */
  source: 'options' | 'register'
}

export type WebhookOutcome = 'delivered' | 'retrying' | 'failed'

/** One attempt, in the delivery log. Never holds the secret or the signature. */
export interface WebhookDelivery {
  eventId: string
  endpointId: string
  type: string
  url: string
  /** 1 for the first try. */
  attempt: number
  /** HTTP status, or 0 when no response came (network error, timeout). */
  status: number
  outcome: WebhookOutcome
  /** Why the attempt failed: `HTTP 500`, `ECONNREFUSED`, `timed out after 5000 ms`, … */
  error?: string
  /** ISO 8601. */
  at: string
}

export interface WaitForOptions {
  /** Default 5000; the promise rejects after it. */
  timeoutMs?: number
}

/** Test controls: `emu.webhooks`. */
export interface WebhookControls {
  /** Adds an endpoint for an app. Throws a TypeError for a non-http(s) URL or bad options. */
  register(endpoint: WebhookEndpointOptions): { id: string; secret: string }
  /** Removes an endpoint and drops its queued events; false when unknown. */
  unregister(id: string): boolean
  /** A snapshot of the endpoints. */
  readonly endpoints: readonly WebhookEndpoint[]
  /** The last 1000 attempts, oldest first (live, like `emu.log`). */
  readonly deliveries: readonly WebhookDelivery[]
  /** Events queued, in flight or waiting for a retry. */
  readonly pending: number
  /**
   * Resolves with the first log entry (already there, or still to come) that matches;
   * rejects after `timeoutMs`, or when the emulator closes.
   */
  waitFor(predicate: (delivery: WebhookDelivery) => boolean, options?: WaitForOptions): Promise<WebhookDelivery>
  /**
   * Test control: dispatches an event as a service would (to every endpoint of the app
   * subscribed to `type`) and returns its payload. Throws a TypeError on bad arguments.
   */
  send(type: string, data?: unknown, options?: { appId?: string }): WebhookPayload
}
