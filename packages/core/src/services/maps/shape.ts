import type { LatLng } from '@tandem/contract'
import { httpOf, type RequestClient } from '../../client-request.js'
import type { CallOptions, Query } from '../../types.js'
import { requireLatLng, requireObject, requireString } from '../../validate.js'

// What the maps functions share: the request shape (each key checked under its own name) and the call.

export type Check = (value: unknown, field: string) => unknown

export const point = (p: LatLng) => `${p.lat},${p.lng}`

/** Skips the check when the value is absent. */
export const ifPresent =
  (check: Check): Check =>
  (v, f) =>
    v === undefined ? v : check(v, f)

export const waypoint = (value: unknown, field: string): unknown => {
  const v = requireObject(value, field)
  return v.placeId === undefined ? requireLatLng(v, field) : { placeId: requireString(v.placeId, `${field}.placeId`) }
}

/** The request from `params`: each key of `spec` checked under its own name, other keys dropped. */
export function shape(params: unknown, spec: Record<string, Check>): Record<string, unknown> {
  const p = requireObject(params, 'params')
  const out: Record<string, unknown> = {}
  for (const k in spec) out[k] = spec[k]?.(p[k], k)
  return out
}

/** One maps call: a POST of `body`, or a GET with `query`, at `/v1/{path}`; its answer must fit `shape` (a contract line). */
export function mapsCall<T>(
  client: RequestClient,
  path: string,
  send: { body: unknown } | { query: Query },
  shape: string,
  options?: CallOptions,
): Promise<T> {
  return httpOf(client)<T>({
    ...options,
    ...send,
    service: 'maps',
    method: 'body' in send ? 'POST' : 'GET',
    path: `/v1/${path}`,
    shape,
  })
}
