import { GEOCODE_RESPONSE_FIELDS } from '@tandem/contract'
import type { RequestClient } from '../../client-request.js'
import type { CallOptions } from '../../types.js'
import { requireLatLng, requireObject, requireString } from '../../validate.js'
import { mapsCall, shape, type Check } from './shape.js'
import type { GeocodeParams, GeocodeResult } from './types.js'

/**
 * Forward (`{ query }`) or reverse (`{ location }`) geocoding. Async, so a bad input rejects
 * (a `ValidationError` naming the field) before anything is sent.
 *
 * @example
 * ```ts
 * const { results } = await geocode(client, { query: 'Porto, Portugal' })
 * ```
 */
export async function geocode(
  client: RequestClient,
  params: GeocodeParams,
  options?: CallOptions,
): Promise<{ results: GeocodeResult[] }> {
  const spec: Record<string, Check> =
    requireObject(params, 'params').location === undefined ? { query: requireString } : { location: requireLatLng }
  return mapsCall(client, 'geocode', { body: shape(params, spec) }, GEOCODE_RESPONSE_FIELDS, options)
}
