// Signed webhooks from the services to the app's backend: per-endpoint queues delivered in
// the background, retried on a schedule, recorded in a bounded log that tests can wait on.
import { DEV_APP } from '../defaults.js'
import { WEBHOOK_DEFAULTS } from './defaults.js'
import { createDeliveryLog } from '../delivery-log.js'
import { EndpointQueue, type QueuedEvent } from './endpoint-queue.js'
import { randomId, resolveEndpoint, subscribes, type EndpointContext } from './endpoints.js'
import type {
  WebhookControls,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  WebhookOptions,
  WebhookPayload,
} from './types.js'

export type {
  WaitForOptions,
  WebhookControls,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointOptions,
  WebhookEvent,
  WebhookEventType,
  WebhookOptions,
  WebhookOutcome,
  WebhookPayload,
} from './types.js'

export interface WebhookModule {
  /** Queue an event for every endpoint the app registered for its type. Never throws. */
  dispatch(appId: string, event: WebhookEvent): void
  controls: WebhookControls
  reset(): void
  close(): void
}

/** What the emulator knows beyond the options: its apps (the first is the default). */
export interface WebhookModuleContext {
  appIds?: readonly string[]
}

export function createWebhookModule(options: WebhookOptions = {}, context: WebhookModuleContext = {}): WebhookModule {
  const retryDelaysMs = resolveDelays(options.retryDelaysMs)
  const timeoutMs = options.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0))
    throw new RangeError('webhooks.timeoutMs must be a positive number')
  const appIds = context.appIds && context.appIds.length > 0 ? context.appIds : undefined
  const ctx: EndpointContext = { defaultAppId: appIds?.[0] ?? DEV_APP.appId, appIds: appIds && new Set(appIds) }
  if (options.endpoints !== undefined && !Array.isArray(options.endpoints))
    throw new TypeError('webhooks.endpoints must be an array')
  const configured = (options.endpoints ?? []).map((e) => resolveEndpoint(e, ctx, 'options'))

  // One entry per attempt, kept as logged: `deliveries` is the live array itself.
  const log = createDeliveryLog<WebhookDelivery>({
    size: WEBHOOK_DEFAULTS.logSize,
    name: 'webhooks',
    summary: lastAttempts,
  })
  const settings = {
    retryDelaysMs,
    timeoutMs,
    record: (entry: WebhookDelivery) => log.record(entry),
  }
  let endpoints = new Map<string, WebhookEndpoint>()
  const queues = new Map<string, EndpointQueue>()
  let closed = false

  const restoreEndpoints = (): void => {
    endpoints = new Map(configured.map((e) => [e.id, e]))
  }
  const cancelQueues = (): void => {
    for (const queue of queues.values()) queue.cancel()
    queues.clear()
  }

  /** Builds the payload and queues it; throws only for a malformed event. */
  const enqueue = (appId: string, event: WebhookEvent): WebhookPayload => {
    if (typeof appId !== 'string' || appId === '') throw new TypeError('appId must be a non-empty string')
    if (typeof event?.type !== 'string' || event.type === '')
      throw new TypeError('event type must be a non-empty string')
    const payload: WebhookPayload = {
      id: randomId(WEBHOOK_DEFAULTS.eventIdPrefix),
      type: event.type,
      createdAt: new Date().toISOString(),
      appId,
      data: event.data ?? null,
    }
    let body: string
    try {
      body = JSON.stringify(payload)
    } catch {
      throw new TypeError(`event ${event.type}: data is not JSON-serialisable`)
    }
    if (closed) return payload
    const item: QueuedEvent = { payload, body }
    for (const endpoint of endpoints.values()) {
      if (!subscribes(endpoint, appId, event.type)) continue
      let queue = queues.get(endpoint.id)
      if (!queue) {
        queue = new EndpointQueue(endpoint, settings)
        queues.set(endpoint.id, queue)
      }
      queue.push(item)
    }
    return payload
  }

  const controls: WebhookControls = {
    register(endpoint) {
      const resolved = resolveEndpoint(endpoint, ctx, 'register')
      endpoints.set(resolved.id, resolved)
      return { id: resolved.id, secret: resolved.secret }
    },
    unregister(id) {
      queues.get(id)?.cancel()
      queues.delete(id)
      return endpoints.delete(id)
    },
    get endpoints() {
      return [...endpoints.values()].map((e) => ({ ...e, events: [...e.events] }))
    },
    get deliveries() {
      return log.entries
    },
    get pending() {
      let count = 0
      for (const queue of queues.values()) count += queue.size
      return count
    },
    waitFor(predicate, waitOptions = {}) {
      return log.waitFor(predicate, waitOptions.timeoutMs ?? WEBHOOK_DEFAULTS.waitForTimeoutMs)
    },
    send(type, data = {}, sendOptions = {}) {
      const appId = sendOptions.appId ?? ctx.defaultAppId
      if (ctx.appIds && !ctx.appIds.has(appId)) throw new TypeError(`unknown appId ${appId}`)
      return enqueue(appId, { type, data })
    },
  }

  restoreEndpoints()
  return {
    dispatch(appId, event) {
      try {
        enqueue(appId, event)
      } catch (error) {
        // A service bug must not fail the request that triggered the event.
        console.error('[tandem-emulator] webhook dispatch dropped an event:', error)
      }
    },
    controls,
    reset() {
      cancelQueues()
      log.clear()
      restoreEndpoints()
    },
    close() {
      closed = true
      cancelQueues()
      log.close()
    },
  }
}

/** What a timed-out test most needs to see: how far the last deliveries got. */
function lastAttempts(entries: readonly WebhookDelivery[]): string {
  const last = entries
    .slice(-3)
    .map((d) => `${d.type} ${d.eventId} #${d.attempt} ${d.outcome} ${d.status}${d.error ? ` (${d.error})` : ''}`)
  return last.length === 0 ? 'no deliveries logged' : `last: ${last.join('; ')}`
}

function resolveDelays(delays: unknown): readonly number[] {
  if (delays === undefined) return WEBHOOK_DEFAULTS.retryDelaysMs
  if (
    !Array.isArray(delays) ||
    delays.length > WEBHOOK_DEFAULTS.maxRetries ||
    !delays.every((d) => typeof d === 'number' && Number.isFinite(d) && d >= 0)
  ) {
    throw new RangeError(`webhooks.retryDelaysMs must be at most ${WEBHOOK_DEFAULTS.maxRetries} non-negative numbers`)
  }
  return [...(delays as number[])]
}
