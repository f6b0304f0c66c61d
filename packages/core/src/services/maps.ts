import type { Client, ServiceClient } from '../base-client.js'
import { listPages, type PagePromise } from '../collection.js'
import { ApiError, ValidationError } from '../errors.js'
import type { Http } from '../http.js'
import type { CallOptions, Query } from '../types.js'
import {
  LAT_MAX,
  LNG_MAX,
  MAX_ADDRESS_LINE,
  MAX_ADDRESS_LINES,
  MAX_PERSON_NAME,
  MAX_POSTAL_CODE,
  MAX_QUERY,
  MAX_RADIUS_METERS,
  MAX_WAYPOINTS,
  PAGE_MAX,
  PAGE_MIN,
  ZOOM_MAX,
  ZOOM_MIN,
  PLACE_TYPES,
  TRAVEL_MODES,
  type AddressComponent,
  type AddressRequest,
  type AddressValidation,
  type BBox,
  type GeocodeRequest,
  type LatLng,
  type MapFeature,
  type MapView,
  type Place,
  type PlaceSearchQuery,
  type PlaceType,
  type Route,
  type RouteLeg,
  type RouteRequest,
  type TravelMode,
  type Waypoint,
} from '@tandem/contract'
import { requireArray, requireLatLng, requireNumber, requireObject, requireOneOf, requireString } from '../validate.js'

// Typed client of the maps service, attached to the client as `client.maps`. REST shapes:
// docs/services/maps.md. Inputs are checked here, before anything is sent (and inside the async
// functions, so a bad input rejects rather than throws).

export type {
  AddressComponent,
  AddressValidation,
  BBox,
  MapFeature,
  MapView,
  Place,
  PlaceType,
  RouteLeg,
  TravelMode,
  Waypoint,
}

export type GeocodeParams = GeocodeRequest

/** A geocoding answer: a place (with `distanceMeters` from the point asked about, when reverse). */
export type GeocodeResult = Place

export type RouteParams = RouteRequest

export interface ComputedRoute extends Route {
  /** `polyline`, decoded. */
  coordinates: LatLng[]
}

/** The contract's search, with `near` as a point (sent as `lat,lng`). */
export type PlaceSearchParams = Omit<PlaceSearchQuery, 'near'> & { near?: LatLng }

export type AddressParams = AddressRequest

export type AddressConfirmation = AddressComponent['confirmation']

export type MapViewParams = { center: LatLng; zoom: number } | { bbox: BBox }

export interface MapsService {
  /** Forward (`{ query }`) or reverse (`{ location }`) geocoding. */
  geocode(params: GeocodeParams, options?: CallOptions): Promise<{ results: GeocodeResult[] }>
  computeRoute(params: RouteParams, options?: CallOptions): Promise<ComputedRoute>
  /** Await for one page, `for await` for every place. */
  searchPlaces(params?: PlaceSearchParams, options?: CallOptions): PagePromise<Place>
  validateAddress(params: AddressParams, options?: CallOptions): Promise<AddressValidation>
  getMapView(params: MapViewParams, options?: CallOptions): Promise<MapView>
}

/**
 * Google's encoded polyline (precision 5) to points. Not @googlemaps/polyline-codec: its Node entry
 * is UMD, so `import { decode }` fails in Node ESM, and the workaround warns in every bundler. The
 * tests check this against the package's decoder.
 */
export function decodePolyline(s: string): LatLng[] {
  let i = 0
  let lat = 0
  let lng = 0
  const next = () => {
    let b: number
    let shift = 0
    let r = 0
    do {
      b = s.charCodeAt(i++) - 63
      r |= (b & 31) << shift
      shift += 5
    } while (b > 31)
    return r & 1 ? ~(r >> 1) : r >> 1
  }
  const out: LatLng[] = []
  while (i < s.length) out.push({ lat: (lat += next()) / 1e5, lng: (lng += next()) / 1e5 })
  return out
}

type Check = (value: unknown, field: string) => unknown

const point = (p: LatLng) => `${p.lat},${p.lng}`
/** Skips the check when the value is absent. */
const ifPresent =
  (check: Check): Check =>
  (v, f) =>
    v === undefined ? v : check(v, f)
const waypoint = (value: unknown, field: string): unknown => {
  const v = requireObject(value, field)
  return v.placeId === undefined ? requireLatLng(v, field) : { placeId: requireString(v.placeId, `${field}.placeId`) }
}

/** The request from `params`: each key of `spec` checked under its own name, other keys dropped. */
function shape(params: unknown, spec: Record<string, Check>): Record<string, unknown> {
  const p = requireObject(params, 'params')
  const out: Record<string, unknown> = {}
  for (const k in spec) out[k] = spec[k]?.(p[k], k)
  return out
}

export function createMapsService(http: Http): MapsService {
  const get = <T>(path: string, query: Query, options?: CallOptions) =>
    http<T>({ ...options, service: 'maps', method: 'GET', path: `/v1/${path}`, query })
  const post = <T>(path: string, body: unknown, options?: CallOptions) =>
    http<T>({ ...options, service: 'maps', method: 'POST', path: `/v1/${path}`, body })

  return {
    async geocode(params, options) {
      return post(
        'geocode',
        shape(
          params,
          requireObject(params, 'params').location === undefined
            ? { query: requireString }
            : { location: requireLatLng },
        ),
        options,
      )
    },

    async computeRoute(params, options) {
      const body = shape(params, {
        origin: waypoint,
        destination: waypoint,
        waypoints: ifPresent((v, f) => requireArray(v, f, MAX_WAYPOINTS, waypoint)),
        mode: (v, f) => requireOneOf(v, f, TRAVEL_MODES),
      })
      const route = await post<ComputedRoute>('routes:compute', body, options)
      if (typeof route?.polyline !== 'string')
        throw new ApiError('POST /v1/routes:compute: no polyline', { code: 'invalid_response', status: 200 })
      return { ...route, coordinates: decodePolyline(route.polyline) }
    },

    searchPlaces(params = {}, options) {
      return listPages<Place>(http, 'maps', options, () => {
        const { near, cursor, ...rest } = shape(params, {
          query: ifPresent((v, f) => requireString(v, f, MAX_QUERY)),
          near: ifPresent(requireLatLng),
          radiusMeters: ifPresent((v, f) => requireNumber(v, f, 1, MAX_RADIUS_METERS)),
          type: ifPresent((v, f) => requireOneOf(v, f, PLACE_TYPES)),
          limit: ifPresent((v, f) => requireNumber(v, f, PAGE_MIN, PAGE_MAX, true)),
          cursor: ifPresent(requireString),
        })
        if (rest.radiusMeters !== undefined && !near) throw new ValidationError('near', 'is required with radiusMeters')
        return ['/v1/places', { ...rest, near: near && point(near as LatLng), cursor } as Query]
      })
    },

    async validateAddress(params, options) {
      const body = shape(params, {
        regionCode: (v, f) => requireString(v, f, 2),
        // At least one line (the contract's minItems): an empty form is refused before anything is sent.
        addressLines: (v, f) =>
          requireArray(v, f, MAX_ADDRESS_LINES, (x, g) => requireString(x, g, MAX_ADDRESS_LINE), 1),
        locality: ifPresent((v, f) => requireString(v, f, MAX_PERSON_NAME)),
        postalCode: ifPresent((v, f) => requireString(v, f, MAX_POSTAL_CODE)),
      })
      return post('addresses:validate', body, options)
    },

    async getMapView(params, options) {
      const p = requireObject(params, 'params')
      if (p.bbox === undefined)
        return get(
          'views',
          { center: point(requireLatLng(p.center, 'center')), zoom: requireNumber(p.zoom, 'zoom', ZOOM_MIN, ZOOM_MAX) },
          options,
        )
      const b = requireArray(p.bbox, 'bbox', 4, (v, f) => requireNumber(v, f, -LNG_MAX, LNG_MAX))
      const [, south = 0, , north = 0] = b
      if (b.length < 4 || !(south < north && south >= -LAT_MAX && north <= LAT_MAX))
        throw new ValidationError('bbox', 'must be [west, south, east, north]')
      return get('views', { bbox: b.join() }, options)
    },
  }
}

/** The maps service for a client, with its generic `resources` collection (`@tandem/core/maps`). */
export function maps(client: Client): ServiceClient & MapsService {
  return { resources: client.collection('maps', 'resources'), ...createMapsService(client.request) }
}
