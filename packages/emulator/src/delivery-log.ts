// The one bounded delivery log (webhooks, push): newest `size` entries, listeners, and the waits
// tests hang on it, so no test ever sleeps.

/** A timer's delay stays below 2^31 ms: past it Node fires at once. */
const TIMER_LIMIT = 2 ** 31

export interface DeliveryLogOptions<T> {
  /** How many entries are kept; the oldest go first. */
  size: number
  /** Prefix of waitFor errors, e.g. `webhooks` → `webhooks.waitFor timed out …`. */
  name: string
  /**
   * When set, an entry with a key already logged replaces it in place (a delivery whose status
   * moved on); otherwise every record is a new entry (one per attempt).
   */
  key?: (entry: T) => string
  /**
   * When set, the log keeps copies and hands out copies, so no caller can change what others see.
   * Without it, `entries` and what waiters get are the logged objects themselves.
   */
  copy?: (entry: T) => T
  /** What a timed-out test most needs to see about the log. */
  summary: (entries: readonly T[]) => string
}

interface Waiter<T> {
  predicate: (entry: T) => boolean
  resolve: (entry: T) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

export interface DeliveryLog<T> {
  /** Oldest first. Live: cleared and trimmed in place, so a reference a test holds stays current. */
  readonly entries: readonly T[]
  /** Adds an entry (or replaces the one with its key), then tells listeners and waiters. */
  record(entry: T): void
  /** A snapshot (copies when the log copies). */
  list(): T[]
  on(listener: (entry: T) => void): () => void
  /** The first entry, logged or still to come, that matches; rejects after `timeoutMs` or on close. */
  waitFor(predicate: (entry: T) => boolean, timeoutMs: number): Promise<T>
  clear(): void
  /** Rejects every wait now and every later one that is not already met: nothing more will be logged. */
  close(): void
}

export function createDeliveryLog<T>(options: DeliveryLogOptions<T>): DeliveryLog<T> {
  const { size, name, key, summary } = options
  const copy = options.copy ?? ((entry: T) => entry)
  const entries: T[] = []
  /** Only with `key`: finds the entry a record updates. */
  const byKey = new Map<string, T>()
  const waiters = new Set<Waiter<T>>()
  const listeners = new Set<(entry: T) => void>()
  let closed = false

  const settle = (waiter: Waiter<T>): void => {
    clearTimeout(waiter.timer)
    waiters.delete(waiter)
  }

  /** True when the waiter is settled (matched, or its predicate threw). */
  const offer = (waiter: Waiter<T>, entry: T): boolean => {
    let matched: boolean
    try {
      matched = waiter.predicate(copy(entry))
    } catch (error) {
      settle(waiter)
      waiter.reject(error instanceof Error ? error : new Error(String(error)))
      return true
    }
    if (!matched) return false
    settle(waiter)
    waiter.resolve(copy(entry))
    return true
  }

  const store = (entry: T): void => {
    const id = key?.(entry)
    const previous = id === undefined ? undefined : byKey.get(id)
    if (id !== undefined) byKey.set(id, entry)
    // An update keeps its place: the log is ordered by when a delivery began.
    if (previous !== undefined) entries[entries.indexOf(previous)] = entry
    else entries.push(entry)
    if (entries.length <= size) return
    for (const dropped of entries.splice(0, entries.length - size)) if (key) byKey.delete(key(dropped))
  }

  return {
    entries,
    record(delivery) {
      const entry = copy(delivery)
      store(entry)
      for (const listener of [...listeners]) {
        try {
          listener(copy(entry))
        } catch (err) {
          // One broken listener must not stop the others, nor the service that recorded.
          console.error(`[tandem-emulator] ${name} listener threw:`, err)
        }
      }
      for (const waiter of [...waiters]) offer(waiter, entry)
    },
    list: () => entries.map(copy),
    on(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    waitFor(predicate, timeoutMs) {
      if (typeof predicate !== 'function') return Promise.reject(new TypeError('waitFor needs a predicate'))
      if (!(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs < TIMER_LIMIT))
        return Promise.reject(new RangeError('timeoutMs must be a positive number below 2^31'))
      return new Promise((resolve, reject) => {
        const waiter: Waiter<T> = {
          predicate,
          resolve,
          reject,
          timer: setTimeout(() => {
            settle(waiter)
            reject(new Error(`${name}.waitFor timed out after ${timeoutMs} ms; ${summary(entries)}`))
          }, timeoutMs),
        }
        waiters.add(waiter)
        // Entries already logged count: the delivery may well beat the test to the wait.
        for (const entry of entries) if (offer(waiter, entry)) return
        if (closed) {
          settle(waiter)
          reject(new Error(`${name}.waitFor: the emulator is closed`))
        }
      })
    },
    clear() {
      entries.length = 0
      byKey.clear()
    },
    close() {
      closed = true
      for (const waiter of [...waiters]) {
        settle(waiter)
        waiter.reject(new Error(`${name}.waitFor: the emulator closed`))
      }
    },
  }
}
