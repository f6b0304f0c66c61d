import { listPages, type PagePromise } from '../collection.js'
import { ApiError, ValidationError } from '../errors.js'
import type { Http } from '../http.js'
import type { CallOptions, Query } from '../types.js'
import { arr, latLng, num, obj, oneOf, str, type LatLng } from '../validate.js'

// Typed client of the maps service, attached to the client as `client.maps`. REST shapes:
// docs/services/maps.md. Inputs are checked here, before anything is sent (and inside the async
// functions, so a bad input rejects rather than throws).

/** GeoJSON order: west, south, east, north (west > east crosses the antimeridian). */
export type BBox = [west: number, south: number, east: number, north: number]

export type GeocodeParams = { query: string } | { location: LatLng }

export interface GeocodeResult {
  name: string
  formattedAddress: string
  location: LatLng
  /** ISO 3166-1 alpha-2. */
  countryCode: string
  /** Usable as a route endpoint: `{ placeId }`. */
  placeId: string
  /** `city`, `capital`, `country`. */
  types: string[]
  population?: number
  /** From the point asked about (reverse geocoding) or from `near` (places). */
  distanceMeters?: number
}

export type Place = GeocodeResult

export type TravelMode = 'drive' | 'walk' | 'bicycle'
export type Waypoint = LatLng | { placeId: string }

export interface RouteParams {
  origin: Waypoint
  destination: Waypoint
  /** Intermediate stops, at most 25: one leg per stop, plus one. */
  waypoints?: Waypoint[]
  mode: TravelMode
}

export interface RouteLeg {
  distanceMeters: number
  durationSeconds: number
  start: LatLng
  end: LatLng
}

export interface ComputedRoute {
  mode: TravelMode
  distanceMeters: number
  durationSeconds: number
  /** Google encoded polyline (precision 5). */
  polyline: string
  /** `polyline`, decoded. */
  coordinates: LatLng[]
  legs: RouteLeg[]
  bounds: BBox
}

export type PlaceType = 'city' | 'capital'

export interface PlaceSearchParams {
  /** Any word prefix of the name, case- and diacritic-insensitive. */
  query?: string
  near?: LatLng
  /** With `near`; default 50 000, at most 1 000 000. */
  radiusMeters?: number
  type?: PlaceType
  limit?: number
  cursor?: string
}

export interface AddressParams {
  /** ISO 3166-1 alpha-2, e.g. `PT`. */
  regionCode: string
  addressLines: string[]
  locality?: string
  postalCode?: string
}

export type AddressConfirmation = 'confirmed' | 'unconfirmed' | 'fixed' | 'missing'

export interface AddressComponent {
  type: 'address_line' | 'locality' | 'postal_code' | 'country'
  /** As corrected when `fixed`. */
  text: string
  confirmation: AddressConfirmation
  issue?: string
}

export interface AddressValidation {
  verdict: { complete: boolean; hasUnconfirmedComponents: boolean; needsFixes: boolean }
  address: { formattedAddress: string; components: AddressComponent[] }
  /** Where the locality is, when it was found. */
  geocode?: { location: LatLng; placeId: string }
}

export type MapViewParams = { center: LatLng; zoom: number } | { bbox: BBox }

export interface MapFeature {
  type: 'Feature'
  id: string
  properties: {
    kind: 'country' | 'city'
    name: string
    countryCode: string
    placeId?: string
    population?: number
    capital?: boolean
  }
  geometry:
    | { type: 'Point'; coordinates: [number, number] }
    | { type: 'Polygon'; coordinates: number[][][] }
    | { type: 'MultiPolygon'; coordinates: number[][][][] }
}

export interface MapView {
  bounds: BBox
  zoom: number
  /** Country boundaries crossing the view, then its biggest cities (at most 200). */
  features: { type: 'FeatureCollection'; features: MapFeature[] }
}

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
const o =
  (check: Check): Check =>
  (v, f) =>
    v === undefined ? v : check(v, f)
const waypoint = (value: unknown, field: string): unknown => {
  const v = obj(value, field)
  return v.placeId === undefined ? latLng(v, field) : { placeId: str(v.placeId, `${field}.placeId`) }
}

/** The request from `params`: each key of `spec` checked under its own name, other keys dropped. */
function shape(params: unknown, spec: Record<string, Check>): Record<string, unknown> {
  const p = obj(params, 'params')
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
        shape(params, obj(params, 'params').location === undefined ? { query: str } : { location: latLng }),
        options,
      )
    },

    async computeRoute(params, options) {
      const body = shape(params, {
        origin: waypoint,
        destination: waypoint,
        waypoints: o((v, f) => arr(v, f, 25, waypoint)),
        mode: (v, f) => oneOf(v, f, ['drive', 'walk', 'bicycle']),
      })
      const route = await post<ComputedRoute>('routes:compute', body, options)
      if (typeof route?.polyline !== 'string')
        throw new ApiError('POST /v1/routes:compute: no polyline', { code: 'invalid_response', status: 200 })
      return { ...route, coordinates: decodePolyline(route.polyline) }
    },

    searchPlaces(params = {}, options) {
      return listPages<Place>(http, 'maps', options, () => {
        const { near, cursor, ...rest } = shape(params, {
          query: o(str),
          near: o(latLng),
          radiusMeters: o((v, f) => num(v, f, 1, 1e6)),
          type: o((v, f) => oneOf(v, f, ['city', 'capital'])),
          limit: o((v, f) => num(v, f, 1, 100, true)),
          cursor: o(str),
        })
        if (rest.radiusMeters !== undefined && !near) throw new ValidationError('near', 'is required with radiusMeters')
        return ['/v1/places', { ...rest, near: near && point(near as LatLng), cursor } as Query]
      })
    },

    async validateAddress(params, options) {
      const body = shape(params, {
        regionCode: (v, f) => str(v, f, 2),
        addressLines: (v, f) => arr(v, f, 5, str),
        locality: o(str),
        postalCode: o(str),
      })
      return post('addresses:validate', body, options)
    },

    async getMapView(params, options) {
      const p = obj(params, 'params')
      if (p.bbox === undefined)
        return get('views', { center: point(latLng(p.center, 'center')), zoom: num(p.zoom, 'zoom', 0, 20) }, options)
      const b = arr(p.bbox, 'bbox', 4, (v, f) => num(v, f, -180, 180))
      const [, south = 0, , north = 0] = b
      if (b.length < 4 || !(south < north && south >= -90 && north <= 90))
        throw new ValidationError('bbox', 'must be [west, south, east, north]')
      return get('views', { bbox: b.join() }, options)
    },
  }
}
