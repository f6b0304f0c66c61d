// Token buckets per (app, service): capacity = plan limit, continuous refill, starting full.
import { performance } from 'node:perf_hooks'
import { refill } from '@tandem/contract'
import { DEFAULTS } from './defaults.js'
import type { PlanLimit, Service } from './shared-types.js'

export interface RateDecision {
  allowed: boolean
  headers: Record<string, string>
  /** Whole seconds until one token is back, set when refused. */
  retryAfterSeconds?: number
}

interface Bucket {
  tokens: number
  at: number
}

type Clock = () => number

export class RateLimiter {
  private buckets = new Map<string, Bucket>()

  constructor(
    private readonly plans: Record<Service, PlanLimit | false>,
    /** Monotonic milliseconds: wall-clock jumps must not refill or drain a bucket. */
    private readonly now: Clock = () => performance.now(),
  ) {}

  reset(): void {
    this.buckets.clear()
  }

  /** Take one token for a request; `undefined` when the service has no limit. */
  take(app: string, service: Service): RateDecision | undefined {
    return this.decide(app, service, true)
  }

  /** The headers a request would see, without taking a token (for refused auth). */
  peek(app: string | undefined, service: Service): RateDecision | undefined {
    return this.decide(app, service, false)
  }

  private decide(app: string | undefined, service: Service, consume: boolean): RateDecision | undefined {
    const plan = this.plans[service]
    if (!plan) return undefined
    const capacity = plan.limit
    const windowMs = plan.windowMs ?? DEFAULTS.windowMs
    const perMs = capacity / windowMs
    const now = this.now()
    const key = `${app ?? ''}\u0000${service}`
    const existing = app === undefined ? undefined : this.buckets.get(key)
    const bucket = existing ?? { tokens: capacity, at: now }
    bucket.tokens = refill(bucket.tokens, capacity, now - bucket.at, perMs)
    bucket.at = now
    if (consume && app !== undefined && !existing) this.buckets.set(key, bucket)

    const tolerance = Math.min(DEFAULTS.rateLimitToleranceTokens, DEFAULTS.rateLimitToleranceMs * perMs)
    const allowed = bucket.tokens + tolerance >= 1
    // Tokens may dip a hair below zero inside the tolerance: the debt is paid back by refill,
    // so the tolerance absorbs timing jitter without ever adding capacity.
    if (consume && allowed) bucket.tokens -= 1
    const headers = {
      'RateLimit-Limit': String(capacity),
      'RateLimit-Remaining': String(Math.max(0, Math.floor(bucket.tokens))),
      'RateLimit-Reset': String(Math.max(0, Math.ceil((capacity - bucket.tokens) / perMs / 1000))),
    }
    if (!consume || allowed) return { allowed: true, headers }
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000))
    return { allowed: false, headers: { ...headers, 'Retry-After': String(retryAfterSeconds) }, retryAfterSeconds }
  }
}
