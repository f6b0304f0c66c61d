// GET /v1/views?center=lat,lng&zoom=z | ?bbox=west,south,east,north — what a map shows there:
// the country boundaries (Natural Earth 1:110m) crossing the view and its biggest cities. A center
// and zoom are turned into bounds for a DEFAULTS.viewport-sized Web Mercator map; a bbox gets the
// largest whole zoom that shows all of it.
import { LAT_MAX, LNG_MAX, ZOOM_MAX } from '@tandem/contract'
import type { RouteHandler } from '../resource-routes.js'
import { majorCities } from './cities.js'
import { bordered } from './countries.js'
import { DEFAULTS } from './defaults.js'
import { bboxContains, bboxesIntersect, round, type BBox, type LatLng } from './geo.js'
import { invalid, latLngParam, numberParam } from '../validate.js'

const MAX_LAT = 85.05112878 // Web Mercator's edge
const TILE = 256

export const getMapView: RouteHandler = {
  write: false,
  run: ({ query }) => {
    const center = query.get('center')
    const bboxRaw = query.get('bbox')
    const zoomRaw = query.get('zoom')
    if (center && bboxRaw) throw invalid('bbox', 'give either center and zoom, or bbox')
    let bounds: BBox
    let zoom: number
    if (center) {
      if (!zoomRaw) throw invalid('zoom', 'is required with center')
      zoom = Number(zoomRaw) // an integer 0–20: the contract's
      bounds = boundsAround(latLngParam(center, 'center'), zoom)
    } else if (bboxRaw) {
      if (zoomRaw) throw invalid('zoom', 'is computed from bbox; give center to choose it')
      bounds = parseBBox(bboxRaw)
      zoom = zoomFor(bounds)
    } else {
      throw invalid('center', 'or bbox is required')
    }
    bounds = bounds.map((v) => round(v, 6)) as BBox
    return { status: 200, body: { bounds, zoom, features: { type: 'FeatureCollection', features: features(bounds) } } }
  },
}

function features(bounds: BBox): unknown[] {
  const countries = bordered()
    .filter((c) => c.bounds && bboxesIntersect(c.bounds, bounds))
    .map((c) => ({
      type: 'Feature',
      id: c.code,
      properties: { kind: 'country', name: c.name, countryCode: c.code },
      geometry: c.boundary?.geometry,
    }))
  const points: unknown[] = []
  for (const city of majorCities()) {
    if (points.length >= DEFAULTS.viewCities) break
    if (!bboxContains(bounds, city.location)) continue
    points.push({
      type: 'Feature',
      id: city.placeId,
      properties: {
        kind: 'city',
        name: city.name,
        countryCode: city.country,
        placeId: city.placeId,
        population: city.population,
        capital: city.capital,
      },
      geometry: { type: 'Point', coordinates: [city.location.lng, city.location.lat] },
    })
  }
  return [...countries, ...points]
}

/** Web Mercator: world pixel coordinates at a zoom, and back. */
const mercatorY = (lat: number) =>
  (1 - Math.log(Math.tan(Math.PI / 4 + (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 360)) / Math.PI) / 2
const latFromY = (y: number) => (Math.atan(Math.sinh(Math.PI - 2 * Math.PI * y)) * 180) / Math.PI
const wrapLng = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180

function boundsAround(c: LatLng, zoom: number): BBox {
  const size = TILE * 2 ** zoom
  const { width, height } = DEFAULTS.viewport
  const y = mercatorY(c.lat)
  const north = latFromY(Math.max(0, y - height / 2 / size))
  const south = latFromY(Math.min(1, y + height / 2 / size))
  if (width >= size) return [-180, south, 180, north]
  const half = (width / 2 / size) * 360
  return [wrapLng(c.lng - half), south, wrapLng(c.lng + half), north]
}

function zoomFor([west, south, east, north]: BBox): number {
  const lngSpan = (east - west + 360) % 360 || 360
  const ySpan = mercatorY(south) - mercatorY(north)
  const { width, height } = DEFAULTS.viewport
  const fit = Math.min(Math.log2((width * 360) / (TILE * lngSpan)), Math.log2(height / (TILE * Math.max(ySpan, 1e-12))))
  return Math.max(0, Math.min(ZOOM_MAX, Math.floor(fit)))
}

/** Four numbers (the contract's pattern); their ranges and order are checked here. */
function parseBBox(raw: string): BBox {
  const names = ['west', 'south', 'east', 'north']
  const [west, south, east, north] = raw
    .split(',')
    .map((p, i) => numberParam(p, `bbox.${names[i]}`, i % 2 ? -LAT_MAX : -LNG_MAX, i % 2 ? LAT_MAX : LNG_MAX)) as BBox
  if (south >= north) throw invalid('bbox', 'south must be below north')
  if (west === east) throw invalid('bbox', 'west and east must differ (west > east crosses the antimeridian)')
  return [west, south, east, north]
}
