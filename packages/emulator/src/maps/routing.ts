// POST /v1/routes:compute. There is no road graph: a route is the great circle through its
// waypoints, densified into a polyline, with road length = great circle × a winding factor and
// time = length / an average speed per mode. Routes that cannot exist on land are refused (422).
import type { RouteRequest, TravelMode, Waypoint } from '@tandem/contract'
import { createRequire } from 'node:module'
import type * as PolylineCodec from '@googlemaps/polyline-codec'
import { geoBounds, geoInterpolate } from 'd3-geo'
import { HttpError } from '../http-errors.js'
import type { RouteHandler } from '../resource-routes.js'
import { countryByCode, countryAt } from './countries.js'
import { nearestCity } from './cities.js'
import { DEFAULTS } from './defaults.js'
import { meters, type BBox, type LatLng } from './geo.js'
import { findPlace } from './results.js'

// The package's Node entry is UMD, which ESM named imports cannot see: load it as CommonJS.
const { encode } = createRequire(import.meta.url)('@googlemaps/polyline-codec') as typeof PolylineCodec

type Mode = TravelMode

/** Land masses joined by roads, by continent (coarse: islands count as their continent). */
const LANDMASS: Record<string, string> = {
  EU: 'Afro-Eurasia',
  AS: 'Afro-Eurasia',
  AF: 'Afro-Eurasia',
  NA: 'the Americas',
  SA: 'the Americas',
  OC: 'Oceania',
  AN: 'Antarctica',
}

const noRoute = (message: string): HttpError => new HttpError(422, 'route_not_found', message)

export const computeRoute: RouteHandler = {
  write: true, // a POST with a body; nothing is stored
  run: ({ body }) => {
    // Shapes, ranges and the waypoint count are the contract's (checked before this runs).
    const { origin, destination, waypoints = [], mode } = body as RouteRequest
    const stops = [
      waypoint(origin, 'origin'),
      ...waypoints.map((w, i) => waypoint(w, `waypoints[${i}]`)),
      waypoint(destination, 'destination'),
    ]
    return { status: 200, body: route(stops, mode) }
  },
}

function waypoint(value: Waypoint, field: string): LatLng {
  if (!('placeId' in value)) return value
  const placeId = value.placeId.trim()
  const place = findPlace(placeId)
  if (!place)
    throw new HttpError(404, 'not_found', `No place with id "${placeId.slice(0, 100)}".`, [
      { field: `${field}.placeId`, message: 'unknown place' },
    ])
  return place.location
}

function route(stops: LatLng[], mode: Mode) {
  const { kmh, winding, maxKm } = DEFAULTS.modes[mode]
  const regions = stops.map(landmass)
  if (new Set(regions).size > 1) throw noRoute(`No ${mode} route joins ${[...new Set(regions)].join(' and ')}.`)
  const path: [number, number][] = []
  const legs = stops.slice(1).map((end, i) => {
    const start = stops[i] as LatLng
    const greatCircle = meters(start, end)
    const interpolate = geoInterpolate([start.lng, start.lat], [end.lng, end.lat])
    const steps = Math.min(DEFAULTS.maxPointsPerLeg, Math.max(1, Math.ceil(greatCircle / DEFAULTS.polylineStepMeters)))
    // Each leg starts where the previous ended: its first point is already on the path.
    for (let k = i === 0 ? 0 : 1; k <= steps; k++) {
      const [lng, lat] = interpolate(k / steps)
      path.push([lat, lng])
    }
    const distanceMeters = Math.round(greatCircle * winding)
    return { distanceMeters, durationSeconds: Math.round(distanceMeters / (kmh / 3.6)), start, end }
  })
  const distanceMeters = legs.reduce((sum, l) => sum + l.distanceMeters, 0)
  if (distanceMeters > maxKm * 1000) {
    throw noRoute(
      `A ${mode} route of ${Math.round(distanceMeters / 1000)} km is longer than the ${maxKm} km this mode allows.`,
    )
  }
  const [[west, south], [east, north]] = geoBounds({
    type: 'LineString',
    coordinates: path.map(([lat, lng]) => [lng, lat]),
  })
  const bounds: BBox = [west, south, east, north]
  return {
    mode,
    distanceMeters,
    durationSeconds: legs.reduce((sum, l) => sum + l.durationSeconds, 0),
    polyline: encode(path, 5),
    legs,
    bounds,
  }
}

/** Where a stop is, for the land check; at sea (far from any country and city) no route starts. */
function landmass(p: LatLng, i: number, stops: LatLng[]): string {
  const code = countryAt(p)?.code ?? nearCity(p)
  const continent = code ? countryByCode(code)?.continent : undefined
  if (!continent)
    throw noRoute(
      `The ${i === 0 ? 'origin' : i === stops.length - 1 ? 'destination' : `waypoint ${i - 1}`} is not on land.`,
    )
  return LANDMASS[continent] ?? continent
}

function nearCity(p: LatLng): string | undefined {
  const near = nearestCity(p)
  return near && near.distance <= DEFAULTS.maxOffshoreMeters ? near.city.country : undefined
}
