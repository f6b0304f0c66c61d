// ---- Services ----------------------------------------------------------------

import type { RateLimitBucket, ServiceName } from '@tandem/contract'

export { SERVICES, type ServiceName } from '@tandem/contract'

export type HttpMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export type QueryValue = string | number | boolean | null | undefined
export type Query = Record<string, QueryValue>

// ---- Options -----------------------------------------------------------------

export type RateLimitOptions = { requestsPerMinute: number } | { limit: number; intervalMs: number }

export interface ServiceOptions {
  /**
   * The service's base URL; requests go to `{baseUrl}/v1/...`, with its query, if any (the rules
   * of the client's `baseUrl`: no credential, no fragment).
   * @default `{client baseUrl}/{service}`
   */
  baseUrl?: string
  /**
   * Client-side token bucket: queue requests instead of meeting the service's 429s. `false` turns it off.
   * @default `{ requestsPerMinute: 100 }` for maps, 500 for support, 600 for realtime
   */
  rateLimit?: RateLimitOptions | false
}

export interface RetryOptions {
  /**
   * Retries after the first attempt.
   * @default 2
   */
  limit: number
  /**
   * The first retry waits up to this long (full jitter); each further one up to twice as long.
   * @default 300
   */
  baseDelayMs: number
  /**
   * The cap of the backoff between retries.
   * @default 10_000
   */
  maxDelayMs: number
  /**
   * A `Retry-After` longer than this is not waited for: the call fails with a `RateLimitError`.
   * @default 60_000
   */
  maxRetryAfterMs: number
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

/** Anything console-shaped. */
export interface Logger {
  debug?(message: string, data?: Record<string, unknown>): void
  info?(message: string, data?: Record<string, unknown>): void
  warn?(message: string, data?: Record<string, unknown>): void
  error?(message: string, data?: Record<string, unknown>): void
}

// ---- Requests ----------------------------------------------------------------

export interface CallOptions {
  signal?: AbortSignal
  /** This call's deadline, in ms: the rate-limit wait, the token and every attempt (see `ClientOptions.timeoutMs`). */
  timeoutMs?: number
  /** The longest this call may wait for a rate-limit slot (see `ClientOptions.maxQueueWaitMs`). */
  maxQueueWaitMs?: number
}

export interface WriteOptions extends CallOptions {
  /** Sent as `Idempotency-Key`; generated when omitted, so retries apply once. */
  idempotencyKey?: string
}

export interface RequestOptions extends WriteOptions {
  service: ServiceName
  method: HttpMethod
  /** Relative to the service base URL, e.g. `/v1/resources`. */
  path: string
  query?: Query
  body?: unknown
  headers?: Record<string, string>
  retry?: Partial<RetryOptions> | false
  /**
   * What a 2xx answer's body must be, checked before the call resolves: a line of @tandem/contract's
   * generated fields (`PLACE_AUTOCOMPLETE_FIELDS`, …; the syntax is `hasFields`'), or a function that
   * names what is wrong with the answer (a path such as `$.nextCursor`; `undefined` when it fits),
   * given the answer's request id too. An answer that does not fit fails the call with an `ApiError`
   * `bad_response` carrying its status and request id, and is not retried.
   */
  shape?: AnswerShape
  /**
   * Files for a write that takes `attachments` (a reply, a note, a customer's message): each is
   * checked against the contract's limits (a refusal is a `FileError`, before a byte goes), uploaded
   * (tus, resumable; progress in `uploads(client)` of `@tandem/core/uploads`), then the write is
   * sent once with `attachments: [their ids]`. A `File` gives its name and type; a Blob is named
   * 'file'. The uploader is loaded on the first write with files: an app that sends none ships none.
   */
  files?: readonly Blob[]
  /**
   * With a durable outbox (`createClient({ outbox })`): `false` sends this write straight through,
   * unstored, for a signal that means nothing later (a customer's typing).
   * @default true
   */
  durable?: boolean
}

/** `RequestOptions.shape`: a contract line, or a check that names the wrong part of an answer. */
export type AnswerShape = string | ((answer: unknown, requestId: string | undefined) => string | undefined)

// ---- Events ------------------------------------------------------------------

export interface RequestEvent {
  /**
   * The call this attempt belongs to: one id per `client.request` (a counter per client, from 1),
   * the same on every attempt's `request` event and every `retry` event of that call, so a tool can
   * show a call's attempts and why each was retried as one row.
   */
  callId: number
  service: ServiceName
  method: HttpMethod
  /** Path only: never the query string. */
  path: string
  attempt: number
  status?: number
  durationMs: number
  requestId?: string
  errorCode?: string
}

export interface RetryEvent extends RequestEvent {
  delayMs: number
  reason: string
}

export interface RateLimitWaitEvent {
  /** The call that waited (its `request` and `retry` events carry the same `callId`). */
  callId: number
  service: ServiceName
  waitMs: number
  queued: number
  /**
   * Why it waited: `retry-after` when the service had answered 429 and its `Retry-After` held the
   * queue, `bucket` when only the client-side bucket (the plan's pace) did.
   */
  reason: 'retry-after' | 'bucket'
}

/**
 * A service's rate-limit queue and budget, whenever either changes: a request queued, let go or
 * aborted, or a response whose `RateLimit-Remaining` changed what is left.
 */
export interface RateLimitState {
  service: ServiceName
  /** Requests waiting for a slot. */
  queued: number
  /** How long the last of them will wait, in ms (0: none waits). */
  waitMs: number
  /**
   * Requests that may go at once, as of this event: the client's bucket, lowered to the service's
   * `RateLimit-Remaining` (it refills after, at `limit` per window).
   */
  remaining: number
  /** The bucket's size: the plan's limit per window (the service's `RateLimit-Limit` once told). */
  limit: number
  /**
   * Whose quota the service last said `remaining` and `limit` describe (`Tandem-RateLimit-Bucket`):
   * `customer` for a customer token's own (60 a minute), `app` for the app's plan, before any answer,
   * and for a service that does not say.
   */
  bucket: RateLimitBucket
}

export interface ClientEvents {
  request: (event: RequestEvent) => void
  retry: (event: RetryEvent) => void
  /** After a request waited for its slot. */
  rateLimitWait: (event: RateLimitWaitEvent) => void
  /** The queue changed (a request joined it, with the wait it faces, left it, or was aborted), or the budget left did. */
  rateLimit: (state: RateLimitState) => void
}

export type Unsubscribe = () => void
