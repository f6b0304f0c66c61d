// Public types of the emulator. Modules import the leaf types from shared-types.ts, so this file
// (which imports the modules' option types) is never part of a cycle.
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { TokenProfile } from '@tandem/server'
import type { Faults } from './faults.js'
import type { PushControls, PushOptions } from './push/module.js'
import type { RealtimeControls, RealtimeOptions } from './realtime/module.js'
import type { SupportOptions } from './support/module.js'
import type { UploadControls } from './uploads/module.js'
import type { WebhookControls, WebhookOptions } from './webhooks/module.js'
import type { AccessLogLine, EmulatorApp, PlanLimit, Service } from './shared-types.js'

export { SERVICES } from './shared-types.js'
export type { AccessLogLine, EmulatorApp, PlanLimit, Resource, Service } from './shared-types.js'

export interface EmulatorOptions {
  /**
   * Port to listen on; 0 picks a free one (read it from `url`).
   * @default 0
   */
  port?: number
  /**
   * Interface to listen on.
   * @default '127.0.0.1'
   */
  host?: string
  /**
   * The apps (id and keys) it accepts tokens and raw keys of.
   * @default [DEV_APP]
   */
  apps?: EmulatorApp[]
  /**
   * Rate limit per service (`limit` per `windowMs`); `false` turns a service's limit off.
   * @default { maps: { limit: 100 }, support: { limit: 500 }, realtime: { limit: 600 } } per 60 s
   */
  plans?: Partial<Record<Service, PlanLimit | false>>
  /**
   * Each customer token's own rate limit per service, drawn on before the app's plan (a request
   * refused there spends nothing of the app's); `false` turns it off.
   * @default { limit: 60, windowMs: 60_000 } (CUSTOMER_PLAN of @tandem/contract)
   */
  customerPlan?: PlanLimit | false
  /**
   * Seed of the generated data: the same seed gives the same data.
   * @default 1
   */
  seed?: number
  /**
   * Largest request body accepted (413 beyond it).
   * @default 1_048_576
   */
  maxBodyBytes?: number
  /**
   * The emulator's own public origin (`http://localhost:5173`): download links in live frames and
   * webhooks are minted under it (a REST answer uses its request's Host when that is a valid
   * host[:port]). Set it when the emulator is embedded behind another origin (a dev server).
   * @default the address of the server it listens on (`emulator.url`, or the server given to `attach`)
   */
  publicUrl?: string
  /**
   * Serve `POST /dev/token`, a token endpoint for the local dev app.
   * @default true
   */
  devTokenEndpoint?: boolean
  /**
   * Called with each access log line (path only, never the query string).
   */
  onLog?: (line: AccessLogLine) => void
  /**
   * The realtime hub's tunables.
   */
  realtime?: RealtimeOptions
  /**
   * Webhook endpoints and delivery timing.
   */
  webhooks?: WebhookOptions
  /**
   * Web Push: the grace period of the rule, the https.Agent and timeout of each push (docs/push.md).
   */
  push?: PushOptions
  /**
   * The support service's tunables (a customer's typing TTL).
   */
  support?: SupportOptions
}

export interface EmulatorStats {
  requests: number
  tokenRequests: number
  rateLimited: number
  byService: Record<Service, number>
  writesApplied: number
}

export interface MintOptions {
  subject?: string
  scope?: string[]
  /** The `profile` claim: a support customer's name and email (`scope: ['support:customer']`). */
  profile?: TokenProfile
  ttlSeconds?: number
  appId?: string
  now?: number
}

export interface EmulatorCore {
  /** Connect-style handler; unmatched paths call `next()` when given, else 404 JSON. */
  handle(req: IncomingMessage, res: ServerResponse, next?: () => void): void
  /** Reserved for the WebSocket hub, which will listen to the server's 'upgrade' event. */
  attach(server: Server): void
  faults: Faults
  stats: EmulatorStats
  /** The last 1000 access log lines, oldest first. */
  log: AccessLogLine[]
  apps: EmulatorApp[]
  mintToken(o?: MintOptions): Promise<string>
  reset(): void
  /** Controls of the realtime hub, for tests. */
  realtime: RealtimeControls
  /** Registered webhook endpoints and the delivery log, for tests. */
  webhooks: WebhookControls
  /** Web Push: the VAPID public key and what was pushed (or not, and why), for tests and the playground. */
  push: PushControls
  /** Uploaded files: what the service holds of each, its bytes, and the bytes it has read (docs/uploads.md). */
  uploads: UploadControls
}

export interface Emulator extends EmulatorCore {
  url: string
  port: number
  server: Server
  close(): Promise<void>
}
