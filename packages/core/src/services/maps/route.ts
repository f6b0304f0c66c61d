import { MAX_WAYPOINTS, TRAVEL_MODES } from '@tandem/contract'
import type { RequestClient } from '../../client-request.js'
import { ApiError } from '../../errors.js'
import type { CallOptions } from '../../types.js'
import { requireArray, requireOneOf } from '../../validate.js'
import { decodePolyline } from './polyline.js'
import { ifPresent, mapsCall, shape, waypoint } from './shape.js'
import type { ComputedRoute, RouteParams } from './types.js'

/** A route from `origin` to `destination` (through `waypoints`), its polyline decoded into `coordinates`. */
export async function computeRoute(
  client: RequestClient,
  params: RouteParams,
  options?: CallOptions,
): Promise<ComputedRoute> {
  const body = shape(params, {
    origin: waypoint,
    destination: waypoint,
    waypoints: ifPresent((v, f) => requireArray(v, f, MAX_WAYPOINTS, waypoint)),
    mode: (v, f) => requireOneOf(v, f, TRAVEL_MODES),
  })
  const route = await mapsCall<ComputedRoute>(client, 'routes:compute', { body }, options)
  if (typeof route?.polyline !== 'string')
    throw new ApiError('POST /v1/routes:compute: no polyline', { code: 'invalid_response', status: 200 })
  return { ...route, coordinates: decodePolyline(route.polyline) }
}
