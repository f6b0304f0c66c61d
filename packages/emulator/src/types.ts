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
  port?: number
  host?: string
  apps?: EmulatorApp[]
  plans?: Partial<Record<Service, PlanLimit | false>>
  seed?: number
  maxBodyBytes?: number
  devTokenEndpoint?: boolean
  onLog?: (line: AccessLogLine) => void
  realtime?: RealtimeOptions
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
