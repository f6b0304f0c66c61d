// The bounded log of push deliveries, one entry per delivery updated as its status changes, and
// the waits tests hang on it (so no test ever sleeps).
import type { PushDelivery } from './types.js'

interface Waiter {
  predicate: (delivery: PushDelivery) => boolean
  resolve: (delivery: PushDelivery) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

export class PushDeliveryLog {
  /** By id, oldest first. */
  private readonly entries = new Map<string, PushDelivery>()
  private readonly waiters = new Set<Waiter>()
  private readonly listeners = new Set<(delivery: PushDelivery) => void>()

  constructor(private readonly size: number) {}

  /** A new delivery, or a new state of one (same id): stored as a copy, told to listeners and waiters. */
  record(delivery: PushDelivery): void {
    const entry = { ...delivery }
    this.entries.set(entry.id, entry)
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!)
    for (const listener of [...this.listeners]) {
      try {
        listener({ ...entry })
      } catch (err) {
        console.error('[tandem-emulator] push listener threw:', err)
      }
    }
    for (const waiter of [...this.waiters]) this.offer(waiter, entry)
  }

  list(): PushDelivery[] {
    return [...this.entries.values()].map((d) => ({ ...d }))
  }

  on(listener: (delivery: PushDelivery) => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  waitFor(predicate: (delivery: PushDelivery) => boolean, timeoutMs: number): Promise<PushDelivery> {
    if (typeof predicate !== 'function') return Promise.reject(new TypeError('waitFor needs a predicate'))
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs < 2 ** 31))
      return Promise.reject(new RangeError('timeoutMs must be a positive number below 2^31'))
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter)
          reject(new Error(`push.waitFor timed out after ${timeoutMs} ms; ${this.summary()}`))
        }, timeoutMs),
      }
      this.waiters.add(waiter)
      // Entries already logged count: the delivery may well beat the test to the wait.
      for (const entry of this.entries.values()) if (!this.waiters.has(waiter) || this.offer(waiter, entry)) break
    })
  }

  clear(): void {
    this.entries.clear()
  }

  /** True when the waiter is settled. */
  private offer(waiter: Waiter, entry: PushDelivery): boolean {
    let matched: boolean
    try {
      matched = waiter.predicate({ ...entry })
    } catch (error) {
      this.settle(waiter)
      waiter.reject(error instanceof Error ? error : new Error(String(error)))
      return true
    }
    if (!matched) return false
    this.settle(waiter)
    waiter.resolve({ ...entry })
    return true
  }

  private settle(waiter: Waiter): void {
    clearTimeout(waiter.timer)
    this.waiters.delete(waiter)
  }

  private summary(): string {
    const counts = new Map<string, number>()
    for (const d of this.entries.values()) counts.set(d.status, (counts.get(d.status) ?? 0) + 1)
    return counts.size ? `deliveries: ${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')}` : 'no deliveries'
  }
}
