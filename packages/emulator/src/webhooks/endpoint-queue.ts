// One endpoint's deliveries: strictly in order (an event waits for the one before it to be
// delivered or to fail), each retried on its own schedule, all cancellable at once.
import { signWebhook } from '@tandem/server'
import { WEBHOOK_DEFAULTS } from './defaults.js'
import type { WebhookDelivery, WebhookEndpoint, WebhookOutcome, WebhookPayload } from './types.js'

export interface QueuedEvent {
  payload: WebhookPayload
  /** Serialised once, so every attempt signs and sends the same bytes. */
  body: string
}

export interface QueueSettings {
  retryDelaysMs: readonly number[]
  timeoutMs: number
  record(entry: WebhookDelivery): void
}

interface AttemptResult {
  status: number
  error?: string
}

export class EndpointQueue {
  private readonly items: QueuedEvent[] = []
  private running = false
  private cancelled = false
  private controller: AbortController | undefined
  private retry: { timer: NodeJS.Timeout; resolve: () => void } | undefined

  constructor(
    readonly endpoint: WebhookEndpoint,
    private readonly settings: QueueSettings,
  ) {}

  /** Events not yet delivered or failed, the one in flight included. */
  get size(): number {
    return this.items.length
  }

  push(item: QueuedEvent): void {
    if (this.cancelled) return
    if (this.items.length >= WEBHOOK_DEFAULTS.maxQueuePerEndpoint) {
      this.settings.record(this.entry(item, 0, 0, 'failed', 'queue full'))
      return
    }
    this.items.push(item)
    if (!this.running) {
      this.running = true
      this.run().catch((error: unknown) => console.error('[tandem-emulator] webhook queue failed:', error))
    }
  }

  /** Drops the queue, aborts the request in flight and cuts the retry wait short. */
  cancel(): void {
    this.cancelled = true
    this.items.length = 0
    this.controller?.abort()
    if (this.retry) {
      clearTimeout(this.retry.timer)
      this.retry.resolve()
      this.retry = undefined
    }
  }

  private async run(): Promise<void> {
    try {
      for (let head = this.items[0]; head && !this.cancelled; head = this.items[0]) {
        const final = await this.deliver(head)
        if (this.cancelled || !final) return
        // Dequeued before it is logged, so `pending` is already 0 when a waiter sees the last entry.
        this.items.shift()
        this.settings.record(final)
      }
    } finally {
      this.running = false
    }
  }

  /** Attempts until delivered or out of retries; the final entry is returned, not logged. */
  private async deliver(item: QueuedEvent): Promise<WebhookDelivery | undefined> {
    for (let attempt = 1; ; attempt++) {
      const { status, error } = await this.attempt(item, attempt)
      if (this.cancelled) return undefined
      const delay = this.settings.retryDelaysMs[attempt - 1]
      // 409 from a Tandem handler means "already have it" (an earlier attempt landed but its answer was lost).
      if ((status >= 200 && status < 300) || status === 409) return this.entry(item, attempt, status, 'delivered')
      if (delay === undefined) return this.entry(item, attempt, status, 'failed', error)
      this.settings.record(this.entry(item, attempt, status, 'retrying', error))
      await this.sleep(delay)
      if (this.cancelled) return undefined
    }
  }

  private async attempt(item: QueuedEvent, attempt: number): Promise<AttemptResult> {
    const { timeoutMs } = this.settings
    const controller = new AbortController()
    this.controller = controller
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    timer.unref()
    try {
      // A fresh timestamp per attempt: a retry after a long delay must not arrive stale.
      const signature = await signWebhook(item.body, this.endpoint.secret)
      const response = await fetch(this.endpoint.url, {
        method: 'POST',
        body: item.body,
        // A redirect is the receiver's misconfiguration; following it would re-POST elsewhere.
        redirect: 'manual',
        signal: controller.signal,
        headers: {
          'Content-Type': 'application/json',
          'Tandem-Signature': signature,
          'Tandem-Event-Id': item.payload.id,
          'Tandem-Delivery-Attempt': String(attempt),
          'User-Agent': WEBHOOK_DEFAULTS.userAgent,
        },
      })
      // Only the status matters; the body is not read (a receiver may send anything).
      await response.body?.cancel().catch(() => {})
      const ok = response.status >= 200 && response.status < 300
      return ok ? { status: response.status } : { status: response.status, error: `HTTP ${response.status}` }
    } catch (error) {
      return { status: 0, error: timedOut ? `timed out after ${timeoutMs} ms` : describeError(error) }
    } finally {
      clearTimeout(timer)
      if (this.controller === controller) this.controller = undefined
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.retry = undefined
        resolve()
      }, ms)
      // A pending retry must never keep a process alive (an embedded emulator has no close()).
      timer.unref()
      this.retry = { timer, resolve }
    })
  }

  private entry(
    item: QueuedEvent,
    attempt: number,
    status: number,
    outcome: WebhookOutcome,
    error?: string,
  ): WebhookDelivery {
    return {
      eventId: item.payload.id,
      endpointId: this.endpoint.id,
      type: item.payload.type,
      url: this.endpoint.url,
      attempt,
      status,
      outcome,
      ...(error !== undefined ? { error } : {}),
      at: new Date().toISOString(),
    }
  }
}

/** fetch hides the useful part (ECONNREFUSED, …) in `cause`. */
function describeError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause
  if (typeof cause?.code === 'string') return cause.code
  if (typeof cause?.message === 'string') return cause.message
  return error instanceof Error ? error.message : 'request failed'
}
