// The emulator's leaf types: they import nothing of the emulator, so any module may import them
// without a cycle (types.ts, which gathers the public API, imports the modules' option types).
import type { ServiceResource } from '@tandem/contract'

export { SERVICES, type ServiceName as Service } from '@tandem/contract'
import type { ServiceName as Service } from '@tandem/contract'

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

/** An item of the generic collection: the contract's. */
export type Resource = ServiceResource
