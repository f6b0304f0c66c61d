// The bounded delivery log and the waits tests hang on it, so no test ever sleeps.
import type { WebhookDelivery } from './types.js'

interface Waiter {
  predicate: (delivery: WebhookDelivery) => boolean
  resolve: (delivery: WebhookDelivery) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

export class DeliveryLog {
  /** Live: cleared and trimmed in place, so a reference a test holds stays current. */
  readonly entries: WebhookDelivery[] = []
  private readonly waiters = new Set<Waiter>()
  private closed = false

  constructor(private readonly size: number) {}

  record(entry: WebhookDelivery): void {
    this.entries.push(entry)
    if (this.entries.length > this.size) this.entries.splice(0, this.entries.length - this.size)
    for (const waiter of this.waiters) {
      let matched: boolean
      try {
        matched = waiter.predicate(entry)
      } catch (error) {
        this.settle(waiter)
        waiter.reject(error instanceof Error ? error : new Error(String(error)))
        continue
      }
      if (matched) {
        this.settle(waiter)
        waiter.resolve(entry)
      }
    }
  }

  waitFor(predicate: (delivery: WebhookDelivery) => boolean, timeoutMs: number): Promise<WebhookDelivery> {
    if (typeof predicate !== 'function') return Promise.reject(new TypeError('waitFor needs a predicate'))
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0))
      return Promise.reject(new RangeError('timeoutMs must be a positive number'))
    try {
      // Entries already logged count: the delivery may well beat the test to the wait.
      const found = this.entries.find(predicate)
      if (found) return Promise.resolve(found)
    } catch (error) {
      return Promise.reject(error)
    }
    if (this.closed) return Promise.reject(new Error('webhooks.waitFor: the emulator is closed'))
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.settle(waiter)
          reject(new Error(`webhooks.waitFor timed out after ${timeoutMs} ms; ${this.summary()}`))
        }, timeoutMs),
      }
      this.waiters.add(waiter)
    })
  }

  clear(): void {
    this.entries.length = 0
  }

  /** Rejects every wait now: a closed emulator delivers nothing more. */
  close(): void {
    this.closed = true
    for (const waiter of this.waiters) {
      this.settle(waiter)
      waiter.reject(new Error('webhooks.waitFor: the emulator closed'))
    }
  }

  private settle(waiter: Waiter): void {
    clearTimeout(waiter.timer)
    this.waiters.delete(waiter)
  }

  /** What a timed-out test most needs to see: how far deliveries got. */
  private summary(): string {
    const last = this.entries
      .slice(-3)
      .map((d) => `${d.type} ${d.eventId} #${d.attempt} ${d.outcome} ${d.status}${d.error ? ` (${d.error})` : ''}`)
    return last.length === 0 ? 'no deliveries logged' : `last: ${last.join('; ')}`
  }
}
