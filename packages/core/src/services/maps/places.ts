import {
  MAX_QUERY,
  MAX_RADIUS_METERS,
  PAGE_MAX,
  PAGE_MIN,
  PLACE_FIELDS,
  PLACE_TYPES,
  type LatLng,
  type Place,
} from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { httpOf, type RequestClient } from '../../client-request.js'
import { listPages, type PagePromise } from '../../collection.js'
import { ValidationError } from '../../errors.js'
import type { Http } from '../../http.js'
import type { CallOptions, Query } from '../../types.js'
import { requireLatLng, requireNumber, requireOneOf, requireString } from '../../validate.js'
import { ifPresent, point, shape } from './shape.js'
import type { PlaceSearchParams } from './types.js'

/** Places by text, type and distance: await for one page, `for await` for every place. */
export function searchPlaces(
  client: RequestClient,
  params: PlaceSearchParams = {},
  options?: CallOptions,
): PagePromise<Place> {
  // Looked up per page, so that a call given no client rejects like every other failure.
  const http: Http = (request) => httpOf(client)(request)
  return listPages<Place>(
    http,
    'maps',
    options,
    () => {
      const { near, cursor, ...rest } = shape(params, {
        query: ifPresent((v, f) => requireString(v, f, MAX_QUERY)),
        near: ifPresent(requireLatLng),
        radiusMeters: ifPresent((v, f) => requireNumber(v, f, 1, MAX_RADIUS_METERS)),
        type: ifPresent((v, f) => requireOneOf(v, f, PLACE_TYPES)),
        limit: ifPresent((v, f) => requireNumber(v, f, PAGE_MIN, PAGE_MAX, true)),
        cursor: ifPresent(requireString),
      })
      if (rest.radiusMeters !== undefined && !near)
        throw new ValidationError(
          'near',
          DEV && process.env.NODE_ENV !== 'production' && 'is required with radiusMeters',
        )
      return ['/v1/places', { ...rest, near: near && point(near as LatLng), cursor } as Query]
    },
    PLACE_FIELDS,
  )
}
