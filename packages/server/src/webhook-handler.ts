import { DEFAULTS } from './defaults.js'
import { WebhookError, type WebhookClaimError } from './errors.js'
import { errorResponse, jsonResponse } from './json-response.js'
import { createMemoryReplayStore, type WebhookReplayStore } from './replay-store.js'
import { createClaims, type ClaimOutcome } from './webhook-claims.js'
import { verifyWebhook } from './verify-webhook.js'

/** What Tandem POSTs to a webhook endpoint. */
export interface WebhookEvent<T extends string = string, D = unknown> {
  /** `evt_…`; the same on every retry of one event. */
  id: string
  type: T
  /** ISO 8601. */
  createdAt: string
  appId: string
  data: D
}

/** Event type → the shape of its `data`, for typed handlers. */
export type WebhookEventMap = Record<string, unknown>

export type WebhookEventHandler<E extends WebhookEvent = WebhookEvent> = (
  event: E,
  request: Request,
) => void | Promise<void>

// The open map gets a plain index signature: a mapped type over `string` would give each
// handler a literal-typed event that its own signature then refuses.
export type WebhookEventHandlers<M extends WebhookEventMap> = string extends keyof M
  ? { [type: string]: WebhookEventHandler | undefined }
  : { [K in keyof M & string]?: WebhookEventHandler<WebhookEvent<K, M[K]>> }

export interface WebhookHandlerOptions<M extends WebhookEventMap = WebhookEventMap> {
  /** One secret, or several while a rotation is in progress. */
  secret: string | readonly string[]
  /**
   * Replay window either side of now.
   * @default 300
   */
  toleranceSeconds?: number
  /** One handler per event type. A handler that throws answers 500, so Tandem retries. */
  on: WebhookEventHandlers<M>
  /** Called for a type without a handler; the event is acknowledged (200) either way. */
  onUnhandled?: WebhookEventHandler
  /**
   * Where handled events are recorded, and each is claimed by one handler run. Several instances
   * need a shared one (`createRedisReplayStore` from `@tandem/server/redis`).
   * @default bounded, in memory, this process only
   */
  replayStore?: WebhookReplayStore
  /**
   * How long a store call may take, in ms; past it the delivery gets 503 `replay_store_unavailable`
   * (the sender retries), never an unguarded accept.
   * @default 2_000
   */
  storeTimeoutMs?: number
  /**
   * How long a claim on an event holds unrenewed, in seconds, with a store that renews claims
   * (`createRedisReplayStore`): renewed every third of it while the handler runs, it lapses
   * this long after an instance dies mid-handler or a claim's reply is lost, and the sender's
   * next retry is handled.
   * @default DEFAULTS.webhookLeaseSeconds (30)
   */
  leaseSeconds?: number
  /**
   * Told when a handler that is still running has lost its claim (`WebhookClaimError`, code
   * `claim_lost`), once per event: a renewal found the claim no longer this run's (`reason`
   * `'taken'`: it lapsed, or another instance holds it), or no renewal succeeded for a whole lease
   * (`'unrenewed'`: the store failed or hung). Another instance may then run the same event's
   * handler concurrently. The delivery is still answered as usual.
   * @default one line on `console.error` per event
   */
  onError?: (error: WebhookClaimError) => void
  /**
   * Request body cap, in bytes.
   * @default 1_048_576
   */
  maxBodyBytes?: number
}

const HANDLER_DEFAULTS = {
  maxBodyBytes: 1024 * 1024,
  maxEventIdLength: 256,
  storeTimeoutMs: 2_000,
  retryAfterSeconds: 5,
} as const

/** What each outcome of a delivery answers. 503s carry Retry-After: the sender must come back. */
function answer(outcome: ClaimOutcome): Response {
  const retry = { 'Retry-After': String(HANDLER_DEFAULTS.retryAfterSeconds) }
  switch (outcome) {
    case 'handled':
      return jsonResponse(200, { received: true })
    case 'duplicate':
      return errorResponse(409, 'duplicate_delivery', 'This event was already handled.')
    case 'in_flight':
      return errorResponse(503, 'delivery_in_flight', 'This event is being handled; deliver it again later.', retry)
    case 'unavailable':
      return errorResponse(
        503,
        'replay_store_unavailable',
        'The replay store did not answer; deliver it again later.',
        retry,
      )
    case 'failed':
      // Fixed message: whatever was thrown may quote data, a secret or a database URL.
      return errorResponse(500, 'internal_error', 'The webhook handler failed.')
  }
}
const ALLOW = 'POST'

class PayloadTooLarge extends Error {}

/**
 * A fetch-style webhook endpoint, `(Request) => Promise<Response>`: checks the
 * `Tandem-Signature`, refuses replays and hands each event to its handler.
 *
 * @example
 * ```ts
 * export const POST = createWebhookHandler({
 *   secret: webhookSecret, // from your server's environment
 *   on: { 'conversation.created': async (event) => notify(event.data) },
 * })
 * ```
 */
export function createWebhookHandler<M extends WebhookEventMap = WebhookEventMap>(
  // NoInfer: M is an explicit type argument or the open default, never guessed from `on`.
  options: WebhookHandlerOptions<NoInfer<M>>,
): (request: Request) => Promise<Response> {
  // Fail at startup, not on the first delivery.
  const secret = resolveSecret(options.secret)
  const tolerance = options.toleranceSeconds ?? DEFAULTS.webhookToleranceSeconds
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError('toleranceSeconds must be a non-negative number')
  }
  const maxBodyBytes = options.maxBodyBytes ?? HANDLER_DEFAULTS.maxBodyBytes
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1)
    throw new RangeError('maxBodyBytes must be a positive integer')
  const { on, onUnhandled } = options
  if (typeof on !== 'object' || on === null) throw new TypeError('on must be an object of handlers')
  if (onUnhandled !== undefined && typeof onUnhandled !== 'function')
    throw new TypeError('onUnhandled must be a function')
  const store = options.replayStore ?? createMemoryReplayStore()
  const claimable =
    typeof store.claim === 'function' && typeof store.release === 'function' && typeof store.complete === 'function'
  if (!claimable && (typeof store.seen !== 'function' || typeof store.remember !== 'function')) {
    throw new TypeError(
      'replayStore needs claim(), complete() and release() (or, for an older store, seen() and remember())',
    )
  }
  const storeTimeoutMs = options.storeTimeoutMs ?? HANDLER_DEFAULTS.storeTimeoutMs
  if (!(storeTimeoutMs > 0)) throw new RangeError('storeTimeoutMs must be a positive number')
  // A signature stays valid until t + tolerance and t may lead our clock by the tolerance,
  // so twice the window covers every moment a captured request could still verify.
  const ttlSeconds = Math.max(1, Math.ceil(tolerance * 2))
  const leaseSeconds = options.leaseSeconds ?? DEFAULTS.webhookLeaseSeconds
  if (typeof leaseSeconds !== 'number' || !(leaseSeconds > 0) || !Number.isFinite(leaseSeconds)) {
    throw new RangeError('leaseSeconds must be a positive number')
  }
  const { onError } = options
  if (onError !== undefined && typeof onError !== 'function') throw new TypeError('onError must be a function')
  // A lease never outlives the ttl (a short tolerance makes a short ttl).
  const claims = createClaims(store, {
    ttlSeconds,
    leaseSeconds: Math.min(leaseSeconds, ttlSeconds),
    timeoutMs: storeTimeoutMs,
    onLost: onError ?? ((error) => console.error(`[tandem] webhook handler: ${error.message}`)),
  })

  return async (request) => {
    if (request.method !== 'POST') return errorResponse(405, 'method_not_allowed', 'Use POST.', { Allow: ALLOW })

    let body: string
    try {
      body = await readText(request, maxBodyBytes)
    } catch (error) {
      if (error instanceof PayloadTooLarge)
        return errorResponse(413, 'payload_too_large', 'The webhook body is too large.')
      return errorResponse(400, 'invalid_body', 'The webhook body could not be read.')
    }

    try {
      await verifyWebhook({
        body,
        header: request.headers.get('tandem-signature'),
        secret,
        toleranceSeconds: tolerance,
      })
    } catch (error) {
      if (error instanceof WebhookError) return errorResponse(error.status, error.code, error.message)
      return errorResponse(500, 'internal_error', 'The webhook could not be verified.')
    }

    // Parsed only once authentic: nothing unsigned reaches JSON.parse or a handler.
    let event: WebhookEvent
    try {
      const parsed: unknown = JSON.parse(body)
      if (!isEvent(parsed)) return errorResponse(400, 'invalid_event', 'The webhook body needs a string id and type.')
      event = parsed
    } catch {
      return errorResponse(400, 'invalid_json', 'The webhook body is not valid JSON.')
    }

    const handler = Object.hasOwn(on, event.type) ? (on as Record<string, unknown>)[event.type] : undefined
    const outcome = await claims.run(event.id, async () => {
      if (typeof handler === 'function') await (handler as WebhookEventHandler)(event, request)
      else await onUnhandled?.(event, request)
    })
    return answer(outcome)
  }
}

function resolveSecret(secret: unknown): string | string[] {
  if (typeof secret === 'string' && secret.length > 0) return secret
  if (Array.isArray(secret) && secret.length > 0 && secret.every((s) => typeof s === 'string' && s.length > 0)) {
    return [...(secret as string[])]
  }
  throw new TypeError('secret must be a non-empty string or a non-empty array of them')
}

function isEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const { id, type } = value as Record<string, unknown>
  return (
    typeof id === 'string' &&
    id.length > 0 &&
    id.length <= HANDLER_DEFAULTS.maxEventIdLength &&
    typeof type === 'string' &&
    type.length > 0
  )
}

/** The raw body as text, refusing it as soon as it passes the cap (never buffering more). */
async function readText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'))
  if (declared > maxBytes) throw new PayloadTooLarge()
  if (request.body === null) return ''
  const reader = request.body.getReader()
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true }) // the signature covers every byte
  let size = 0
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw new PayloadTooLarge()
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}
