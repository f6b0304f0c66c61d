// The generic `/v1/resources` collection every service offers (DESIGN §4).
import type { ResourceCreate, ResourceUpdate } from '@tandem/contract'
import { HttpError } from './http-errors.js'
import { parseLimit, type ResourceStore } from './resource-store.js'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Principal } from './auth.js'
import type { Route } from './router.js'

export interface RouteContext {
  /** The generic `/v1/resources` store of this service. */
  store: ResourceStore
  /** Who is calling (from the verified token or raw key). */
  principal: Principal
  requestId: string
  /** Throws 403 `insufficient_scope` unless the caller holds `capability`. */
  require: (capability: string) => void
  params: Record<string, string>
  query: URLSearchParams
  /** The parsed JSON object body of a write: the contract's request body, already checked. */
  body: Record<string, unknown> | undefined
  /** The write's `Idempotency-Key`, when sent (realtime dedupes publishes per channel with it). */
  idempotencyKey?: string
  /** `http://host:port` as the caller reached the service (for URLs it hands out: signed downloads). */
  origin?: string
  /**
   * Publishes a change of this service's `collection` on the realtime channel
   * `<service>:<collection>` of the caller's app (docs/protocol.md, "Live collections").
   * Optional so a handler can run alone in a test.
   */
  publishChange?: (collection: string, change: LiveChange) => void
}

/** A live-collection event: `created`/`updated` carry the item, `deleted` its id. */
export type LiveChange = { event: 'created' | 'updated'; item: unknown } | { event: 'deleted'; id: string }

export interface RouteResult {
  status: number
  body?: unknown
  /** True when the handler changed data (counts `stats.writesApplied`). */
  applied?: boolean
}

export interface RouteHandler {
  write: boolean
  /**
   * The capability the route needs, from its params (e.g. `realtime:publish:<channel>`).
   * Omitted: the service default (`maps`, `support:read|write`, `realtime:read|write`).
   */
  capability?: (params: Record<string, string>) => string
  /**
   * A customer token (`support:customer`) may call it too, and gets its own view (the published
   * docs). Any other route refuses a customer, whatever else its scope lists.
   */
  customers?: boolean
  /**
   * Token-free (`security: []` in the contract): callable with no credential at all, then with
   * ANONYMOUS as the principal, no rate limit and no Idempotency-Key. A credential sent anyway is
   * checked as on any route (a bad one is refused); the capability is never asked.
   */
  public?: boolean
  /**
   * False: not counted against the per-request rate limit (an upload's HEAD and PATCH, which a
   * file needs one of per chunk: its creation and DELETE are counted). Auth still runs.
   */
  metered?: boolean
  /** Synchronous on purpose: an idempotent write is checked, applied and recorded in one step. */
  run(ctx: RouteContext): RouteResult
  /**
   * A route that is not JSON (tus uploads, file downloads): after faults, auth, rate limit and
   * scope, it takes the request and answers it itself (no body read, no JSON input check, no
   * idempotency); `run` is then never called. An HttpError it throws is answered as any other.
   */
  stream?: (ctx: StreamContext) => Promise<void>
}

/** What a `stream` route gets: the raw request and response, and who is calling. */
export interface StreamContext {
  req: IncomingMessage
  res: ServerResponse
  principal: Principal
  requestId: string
  params: Record<string, string>
  query: URLSearchParams
  /** `http://host:port` as the caller reached the service (for URLs it hands out). */
  origin: string
}

/** For a `stream` route's `run`, which the pipeline never calls. */
export const streamOnly = (): RouteResult => {
  throw new Error('a stream route is answered by its stream()')
}

const notFound = (id: string) => new HttpError(404, 'not_found', `No resource with id "${truncate(id, 100)}".`)

const list: RouteHandler = {
  write: false,
  run: ({ store, query }) => {
    const limit = parseLimit(query.get('limit'))
    // `?cursor=` (empty) reads as the first page, as clients often send it that way.
    return { status: 200, body: store.list(limit, query.get('cursor') || null) }
  },
}

const get: RouteHandler = {
  write: false,
  run: ({ store, params }) => {
    const id = params.id ?? ''
    const resource = store.get(id)
    if (!resource) throw notFound(id)
    return { status: 200, body: resource }
  },
}

const create: RouteHandler = {
  write: true,
  run: ({ store, body, publishChange }) => {
    const { name, attributes = {} } = body as ResourceCreate
    const item = store.create(name, attributes)
    publishChange?.('resources', { event: 'created', item })
    return { status: 201, body: item, applied: true }
  },
}

const update: RouteHandler = {
  write: true,
  run: ({ store, params, body, publishChange }) => {
    const { name, attributes } = body as ResourceUpdate
    const id = params.id ?? ''
    const resource = store.update(id, {
      ...(name !== undefined ? { name } : {}),
      ...(attributes ? { attributes } : {}),
    })
    if (!resource) throw notFound(id)
    publishChange?.('resources', { event: 'updated', item: resource })
    return { status: 200, body: resource, applied: true }
  },
}

const remove: RouteHandler = {
  write: true,
  run: ({ store, params, publishChange }) => {
    const id = params.id ?? ''
    if (!store.delete(id)) throw notFound(id)
    publishChange?.('resources', { event: 'deleted', id })
    return { status: 204, applied: true }
  },
}

export const resourceRoutes: Route<RouteHandler>[] = [
  { method: 'GET', pattern: '/v1/resources', handler: list },
  { method: 'POST', pattern: '/v1/resources', handler: create },
  { method: 'GET', pattern: '/v1/resources/:id', handler: get },
  { method: 'PATCH', pattern: '/v1/resources/:id', handler: update },
  { method: 'DELETE', pattern: '/v1/resources/:id', handler: remove },
]

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}
