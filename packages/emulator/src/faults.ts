// Scriptable, deterministic failure injection. Tests queue faults in-process; each queued
// fault fires on the next matching service requests, first queued first.
import { mulberry32, type Random } from './prng.js'
import type { Service } from './shared-types.js'

export interface Filter {
  service?: Service
}

export type FaultAction =
  | { kind: 'fail'; status: number; code?: string; retryAfterSeconds?: number }
  | { kind: 'rateLimit'; retryAfterSeconds: number }
  | { kind: 'drop'; when: 'before' | 'after' }
  | { kind: 'respond'; status: number; body: string; contentType?: string }

interface Queued {
  remaining: number
  service?: Service
  action: FaultAction
}

interface Rate extends Filter {
  rate: number
  status: number
}

interface Latency extends Filter {
  ms: number
  remaining: number
}

export class Faults {
  private queue: Queued[] = []
  private latencies: Latency[] = []
  private rates: Rate[] = []
  private tokenFault: { status: number; remaining: number } | undefined
  private random: Random

  constructor(private readonly seed: number = 1) {
    this.random = mulberry32(seed)
  }

  /** Delay matching responses by `ms` (every request until cleared, or the next `count`). */
  latency(ms: number, o: Filter & { count?: number } = {}): this {
    assertNonNegative(ms, 'latency ms')
    this.latencies.push({ ms, remaining: countOf(o.count), ...filterOf(o) })
    return this
  }

  failNext(n: number, o: Filter & { status?: number; code?: string; retryAfterSeconds?: number } = {}): this {
    const status = o.status ?? 503
    assertStatus(status)
    return this.enqueue(n, o, {
      kind: 'fail',
      status,
      ...(o.code ? { code: o.code } : {}),
      ...(o.retryAfterSeconds !== undefined ? { retryAfterSeconds: o.retryAfterSeconds } : {}),
    })
  }

  rateLimitNext(n: number, o: Filter & { retryAfterSeconds?: number } = {}): this {
    return this.enqueue(n, o, { kind: 'rateLimit', retryAfterSeconds: o.retryAfterSeconds ?? 1 })
  }

  /** Destroy the socket with no response; `'after'` applies the request first. */
  dropNext(n: number, o: Filter & { when?: 'before' | 'after' } = {}): this {
    return this.enqueue(n, o, { kind: 'drop', when: o.when ?? 'before' })
  }

  /** Answer with a raw body (HTML, truncated JSON, nothing at all). */
  respondNext(n: number, o: Filter & { status: number; body: string; contentType?: string }): this {
    assertStatus(o.status)
    return this.enqueue(n, o, {
      kind: 'respond',
      status: o.status,
      body: o.body,
      ...(o.contentType ? { contentType: o.contentType } : {}),
    })
  }

  /** Fail a fraction of matching requests, drawn from a PRNG seeded by the emulator seed. */
  errorRate(rate: number, o: Filter & { status?: number } = {}): this {
    if (!(rate >= 0 && rate <= 1)) throw new RangeError('errorRate must be between 0 and 1')
    const status = o.status ?? 503
    assertStatus(status)
    this.rates = this.rates.filter((r) => r.service !== o.service)
    if (rate > 0) this.rates.push({ rate, status, ...filterOf(o) })
    return this
  }

  /** The dev token endpoint answers `status` for the next `count` requests (all, by default). */
  tokenEndpoint(o: { status: number; count?: number }): this {
    assertStatus(o.status)
    this.tokenFault = { status: o.status, remaining: countOf(o.count) }
    return this
  }

  clear(): void {
    this.queue = []
    this.latencies = []
    this.rates = []
    this.tokenFault = undefined
    this.random = mulberry32(this.seed)
  }

  /** @internal Total delay for this request (consumes counted latencies). */
  takeLatency(service: Service): number {
    let total = 0
    for (const l of this.latencies) {
      if (!matches(l, service) || l.remaining <= 0) continue
      total += l.ms
      l.remaining--
    }
    this.latencies = this.latencies.filter((l) => l.remaining > 0)
    return total
  }

  /** @internal The fault for this request, if any; consumes one use of it. */
  take(service: Service): FaultAction | undefined {
    const queued = this.queue.find((q) => q.remaining > 0 && matches(q, service))
    if (queued) {
      queued.remaining--
      this.queue = this.queue.filter((q) => q.remaining > 0)
      return queued.action
    }
    for (const r of this.rates) {
      // Roll only for matching requests, so other traffic does not shift the sequence.
      if (matches(r, service) && this.random() < r.rate) return { kind: 'fail', status: r.status }
    }
    return undefined
  }

  /** @internal Status the token endpoint must answer with, if faulted. */
  takeTokenFault(): number | undefined {
    const f = this.tokenFault
    if (!f || f.remaining <= 0) return undefined
    f.remaining--
    return f.status
  }

  private enqueue(n: number, filter: Filter, action: FaultAction): this {
    const remaining = countOf(n)
    if (remaining > 0) this.queue.push({ remaining, ...filterOf(filter), action })
    return this
  }
}

function filterOf(o: Filter): Filter {
  return o.service === undefined ? {} : { service: o.service }
}

function matches(f: Filter, service: Service): boolean {
  return f.service === undefined || f.service === service
}

function countOf(n: number | undefined): number {
  if (n === undefined) return Infinity
  if (!(n === Infinity || (Number.isInteger(n) && n >= 0)))
    throw new RangeError('count must be a non-negative integer or Infinity')
  return n
}

function assertNonNegative(n: number, what: string): void {
  if (!(Number.isFinite(n) && n >= 0)) throw new RangeError(`${what} must be a non-negative number`)
}

function assertStatus(status: number): void {
  if (!(Number.isInteger(status) && status >= 200 && status <= 599))
    throw new RangeError('status must be an HTTP status from 200 to 599')
}
