// Token buckets: one per (app, service) for the app's plan, and one per (app, customer, service)
// for a customer token (CUSTOMER_PLAN), drawn on first, so one customer's burst is refused on
// its own bucket and never spends what the app's agents share. Capacity = the plan's limit,
// continuous refill, starting full; a full bucket is forgotten (it is the same as a new one).
import { performance } from 'node:perf_hooks'
import { RATE_LIMIT_HEADERS, refill, type RateLimitBucket } from '@tandem/contract'
import { DEFAULTS } from './defaults.js'
import type { PlanLimit, Service } from './shared-types.js'

export interface RateDecision {
  allowed: boolean
  /** The bucket `headers` describe: the one that refused, else the one closer to empty. */
  bucket: RateLimitBucket
  headers: Record<string, string>
  /** Whole seconds until one token is back, set when refused. */
  retryAfterSeconds?: number
}

/** Who draws: the app, and the customer (the token's subject) when the token is a customer's. */
export interface RateCaller {
  app: string
  customer?: string
}

export interface RateLimiterOptions {
  /** Each customer's own plan, per service; `false`: customers draw on the app's plan alone. */
  customerPlan?: PlanLimit | false
  /** Buckets kept at most: past it the least recently used are forgotten even if not full. */
  maxBuckets?: number
}

interface Bucket {
  tokens: number
  at: number
  /** When it is full again (nothing taken meanwhile): from then on it can be forgotten. */
  fullAt: number
}

interface Rate {
  capacity: number
  perMs: number
}

/** One bucket a request draws on, refilled to now; `key` undefined for an unknown caller (a full bucket). */
interface Level {
  kind: RateLimitBucket
  key: string | undefined
  rate: Rate
  bucket: Bucket
}

type Clock = () => number

const rateOf = (plan: PlanLimit): Rate => ({
  capacity: plan.limit,
  perMs: plan.limit / (plan.windowMs ?? DEFAULTS.windowMs),
})

export class RateLimiter {
  // Insertion order is use order (a bucket is re-inserted when used): the first is the least recent.
  private buckets = new Map<string, Bucket>()
  private readonly rates: Partial<Record<Service, Rate>> = {}
  private readonly customerRate: Rate | undefined
  private readonly maxBuckets: number

  constructor(
    plans: Record<Service, PlanLimit | false>,
    /** Monotonic milliseconds: wall-clock jumps must not refill or drain a bucket. */
    private readonly now: Clock = () => performance.now(),
    options: RateLimiterOptions = {},
  ) {
    for (const [service, plan] of Object.entries(plans) as [Service, PlanLimit | false][])
      if (plan) this.rates[service] = rateOf(plan)
    const customer = options.customerPlan ?? DEFAULTS.customerPlan
    this.customerRate = customer ? rateOf(customer) : undefined
    this.maxBuckets = options.maxBuckets ?? DEFAULTS.rateLimitMaxBuckets
  }

  reset(): void {
    this.buckets.clear()
  }

  /** Buckets held now (for tests of the bound). */
  get size(): number {
    return this.buckets.size
  }

  /**
   * Take one token for a request: from the customer's bucket (if a customer) and the app's, or from
   * neither when either refuses (a refused request spends nothing). `undefined` when nothing limits it.
   */
  take(caller: RateCaller, service: Service): RateDecision | undefined {
    const t = this.now()
    const levels = this.levels(caller, service, t)
    if (levels.length === 0) return undefined
    // In order: the customer's own bucket first, so a customer's refusal never reaches the app's.
    const refused = levels.find((l) => !admits(l))
    if (refused) {
      const retryAfterSeconds = Math.max(1, Math.ceil((1 - refused.bucket.tokens) / refused.rate.perMs / 1000))
      const headers = { ...headersOf(refused), [RATE_LIMIT_HEADERS.retryAfter]: String(retryAfterSeconds) }
      return { allowed: false, bucket: refused.kind, headers, retryAfterSeconds }
    }
    for (const level of levels) {
      // Tokens may dip a hair below zero inside the tolerance: the debt is paid back by refill,
      // so the tolerance absorbs timing jitter without ever adding capacity.
      level.bucket.tokens -= 1
      this.keep(level)
    }
    this.forget(t)
    return shown(levels)
  }

  /** The headers a request would see, without taking a token (unknown caller, refused auth): the app's bucket. */
  peek(app: string | undefined, service: Service): RateDecision | undefined {
    const levels = this.levels(app === undefined ? undefined : { app }, service, this.now())
    return levels.length === 0 ? undefined : shown(levels)
  }

  private levels(caller: RateCaller | undefined, service: Service, t: number): Level[] {
    const levels: Level[] = []
    if (caller?.customer !== undefined && this.customerRate)
      levels.push(this.level('customer', `${caller.app}\u0000${service}\u0000${caller.customer}`, this.customerRate, t))
    const rate = this.rates[service]
    if (rate) levels.push(this.level('app', caller && `${caller.app}\u0000${service}`, rate, t))
    return levels
  }

  private level(kind: RateLimitBucket, key: string | undefined, rate: Rate, t: number): Level {
    const existing = key === undefined ? undefined : this.buckets.get(key)
    const bucket = existing ?? { tokens: rate.capacity, at: t, fullAt: t }
    bucket.tokens = refill(bucket.tokens, rate.capacity, t - bucket.at, rate.perMs)
    bucket.at = t
    return { kind, key, rate, bucket }
  }

  /** Stores a bucket that was drawn on, as the most recently used. */
  private keep({ key, rate, bucket }: Level): void {
    if (key === undefined) return
    bucket.fullAt = bucket.at + Math.max(0, rate.capacity - bucket.tokens) / rate.perMs
    this.buckets.delete(key)
    this.buckets.set(key, bucket)
  }

  /**
   * Forgets buckets from the least recently used while they are full by now (the same as a new
   * one), and any past `maxBuckets`. Every bucket fills within its window, so what is kept is at
   * most the buckets drawn on within the longest window, whatever the number of customers.
   */
  private forget(t: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.fullAt > t && this.buckets.size <= this.maxBuckets) break
      this.buckets.delete(key)
    }
  }
}

function admits({ rate, bucket }: Level): boolean {
  const tolerance = Math.min(DEFAULTS.rateLimitToleranceTokens, DEFAULTS.rateLimitToleranceMs * rate.perMs)
  return bucket.tokens + tolerance >= 1
}

/** The headers of the bucket closer to empty (the customer's on a tie: it is the one a client should pace by). */
function shown(levels: Level[]): RateDecision {
  let pick = levels[0] as Level
  for (const level of levels) if (level.bucket.tokens < pick.bucket.tokens) pick = level
  return { allowed: true, bucket: pick.kind, headers: headersOf(pick) }
}

function headersOf({ kind, rate, bucket }: Level): Record<string, string> {
  const { capacity, perMs } = rate
  return {
    [RATE_LIMIT_HEADERS.limit]: String(capacity),
    [RATE_LIMIT_HEADERS.remaining]: String(Math.max(0, Math.floor(bucket.tokens))),
    [RATE_LIMIT_HEADERS.reset]: String(Math.max(0, Math.ceil((capacity - bucket.tokens) / perMs / 1000))),
    [RATE_LIMIT_HEADERS.bucket]: kind,
  }
}
