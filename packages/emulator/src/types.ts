// Public types of the emulator, kept apart so every module can import them without cycles.
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Faults } from './faults.js'
import type { RealtimeControls, RealtimeOptions } from './realtime/module.js'
import type { WebhookControls, WebhookOptions } from './webhooks/module.js'

export type Service = 'maps' | 'support' | 'realtime'

export const SERVICES: readonly Service[] = ['maps', 'support', 'realtime']

export interface EmulatorApp {
  appId: string
  keys: { id: string; secret: string }[]
}

export interface PlanLimit {
  limit: number
  /** Window over which `limit` requests refill; 60 000 ms when omitted. */
  windowMs?: number
}

export interface AccessLogLine {
  time: string
  requestId: string
  method: string
  /** Path only: the query string is never logged (it may hold a raw key). */
  path: string
  /** 0 when the response was never sent (dropped socket, client gone). */
  status: number
  durationMs: number
  service?: Service
  app?: string
}

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
}

export interface Emulator extends EmulatorCore {
  url: string
  port: number
  server: Server
  close(): Promise<void>
}

export interface Resource {
  id: string
  name: string
  service: Service
  attributes: Record<string, unknown>
  createdAt: string
  updatedAt: string
}
