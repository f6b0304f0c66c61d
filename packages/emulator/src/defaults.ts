// Every tunable default of the emulator in one place.
import { CUSTOMER_PLAN, PLANS } from '@tandem/contract'
import type { EmulatorApp, PlanLimit, Service } from './shared-types.js'

export const DEV_APP: EmulatorApp = Object.freeze({
  appId: 'app_dev',
  keys: [Object.freeze({ id: 'key_dev', secret: 'tandem_dev_secret_local_only' })],
})

export const DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  seed: 1,
  maxBodyBytes: 1024 * 1024,
  devTokenEndpoint: true,
  windowMs: 60_000,
  /** The contract's default plans (limit per `intervalMs`). */
  plans: Object.fromEntries(
    Object.entries(PLANS).map(([service, plan]) => [service, { limit: plan.limit, windowMs: plan.intervalMs }]),
  ) as Record<Service, PlanLimit>,
  /** Each customer's own bucket per service (the contract's CUSTOMER_PLAN), drawn on before the app's plan. */
  customerPlan: { limit: CUSTOMER_PLAN.limit, windowMs: CUSTOMER_PLAN.intervalMs } as PlanLimit,
  /**
   * Rate-limit buckets kept at most. Full buckets are forgotten anyway (a full one is the same as a
   * new one); this bounds the rest, forgetting the least recently used first.
   */
  rateLimitMaxBuckets: 100_000,
  /**
   * The client's bucket and ours start at slightly different instants (the first request's
   * latency), so a client that waits for exactly one token may arrive a hair early. We admit
   * a request whose token is at most this far away, capped at `rateLimitToleranceTokens`.
   */
  rateLimitToleranceMs: 50,
  rateLimitToleranceTokens: 0.1,
  seededPerService: 250,
  logSize: 1000,
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
  idempotencyMaxEntries: 10_000,
  devSubject: 'dev-user',
  devScope: ['maps', 'support', 'realtime'],
  devTokenPath: '/dev/token',
  /** Node's own default is 5 minutes; a stuck upload should fail sooner in tests. */
  requestTimeoutMs: 30_000,
  corsMaxAgeSeconds: 600,
} as const
