import { MAX_WAYPOINTS, ROUTE_FIELDS, TRAVEL_MODES } from '@tandem/contract'
import type { RequestClient } from '../../client-request.js'
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
  // The answer fits the contract (a `polyline` string) before it is decoded: else `bad_response`.
  const route = await mapsCall<ComputedRoute>(client, 'routes:compute', { body }, ROUTE_FIELDS, options)
  return { ...route, coordinates: decodePolyline(route.polyline) }
}
