// Countries: names and continents from countries-list, boundaries from Natural Earth 1:110m
// (world-atlas), loaded on first use. world-atlas keys countries by ISO numeric code and short
// names, so boundaries are matched to ISO alpha-2 by name, with the few abbreviations spelled out.
import { createRequire } from 'node:module'
import { countries as COUNTRIES } from 'countries-list'
import { geoArea, geoBounds, geoCentroid, geoContains } from 'd3-geo'
import type { Feature, MultiPolygon, Polygon } from 'geojson'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import { DEFAULTS } from './defaults.js'
import { bboxContains, round, type BBox, type LatLng } from './geo.js'

export interface Country {
  code: string
  name: string
  continent: string
  /** Absent for the small states 1:110m leaves out (Andorra, Singapore…). */
  boundary?: Feature<Polygon | MultiPolygon, { name: string }>
  bounds?: BBox
  centroid?: LatLng
}

/** Natural Earth short names that are not countries-list names. */
const ALIASES: Record<string, string> = {
  'W. Sahara': 'EH',
  'United States of America': 'US',
  'Dem. Rep. Congo': 'CD',
  'Dominican Rep.': 'DO',
  'Falkland Is.': 'FK',
  'Fr. S. Antarctic Lands': 'TF',
  'Timor-Leste': 'TL',
  "Côte d'Ivoire": 'CI',
  'Central African Rep.': 'CF',
  Congo: 'CG',
  'Eq. Guinea': 'GQ',
  Turkey: 'TR',
  'Solomon Is.': 'SB',
  'N. Cyprus': 'CY',
  Somaliland: 'SO',
  'Bosnia and Herz.': 'BA',
  Macedonia: 'MK',
  'S. Sudan': 'SS',
}

const byCode = new Map<string, Country>(
  Object.entries(COUNTRIES).map(([code, c]) => [code, { code, name: c.name, continent: c.continent }]),
)
let withBoundary: Country[] | undefined

/** Countries with a boundary, for map views and containment (boundaries load on first call). */
export function bordered(): Country[] {
  if (withBoundary) return withBoundary
  const require = createRequire(import.meta.url)
  const topology = require('world-atlas/countries-110m.json') as Topology<{
    countries: GeometryCollection<{ name: string }>
  }>
  const byName = new Map([...byCode.values()].map((c) => [c.name, c.code]))
  for (const geometry of topology.objects.countries.geometries) {
    const properties: { name?: string } | undefined = geometry.properties // a null geometry has none
    const name = properties?.name ?? ''
    const country = byCode.get(ALIASES[name] ?? byName.get(name) ?? '')
    if (!country) continue
    const f = feature(topology, geometry) as Feature<Polygon | MultiPolygon, { name: string }>
    roundCoordinates(f.geometry.coordinates)
    // Two Natural Earth shapes can share a code (Cyprus, Northern Cyprus): merge them.
    if (country.boundary) country.boundary.geometry = merge(country.boundary.geometry, f.geometry)
    else country.boundary = f
    const [[west, south], [east, north]] = geoBounds(country.boundary)
    const [lng, lat] = geoCentroid(mainland(country.boundary.geometry))
    country.bounds = [west, south, east, north]
    country.centroid = { lat: round(lat, 5), lng: round(lng, 5) }
  }
  withBoundary = [...byCode.values()].filter((c) => c.boundary)
  return withBoundary
}

export const countryByCode = (code: string): Country | undefined => byCode.get(code)
export const countryName = (code: string): string => byCode.get(code)?.name ?? code

/** The country whose 1:110m boundary contains the point, if any (coastal points may fall outside). */
export function countryAt(p: LatLng): Country | undefined {
  return bordered().find(
    (c) => c.bounds && c.boundary && bboxContains(c.bounds, p) && geoContains(c.boundary, [p.lng, p.lat]),
  )
}

/** The largest polygon: France's centre is in France, not between it and French Guiana. */
function mainland(g: Polygon | MultiPolygon): Polygon {
  if (g.type === 'Polygon') return g
  const polygons = g.coordinates.map((coordinates): Polygon => ({ type: 'Polygon', coordinates }))
  return polygons.reduce((a, b) => (geoArea(b) > geoArea(a) ? b : a))
}

function merge(a: Polygon | MultiPolygon, b: Polygon | MultiPolygon): MultiPolygon {
  const parts = (g: Polygon | MultiPolygon) => (g.type === 'Polygon' ? [g.coordinates] : g.coordinates)
  return { type: 'MultiPolygon', coordinates: [...parts(a), ...parts(b)] }
}

function roundCoordinates(value: unknown): void {
  if (!Array.isArray(value)) return
  if (typeof value[0] === 'number') {
    for (let i = 0; i < value.length; i++) value[i] = round(value[i] as number, DEFAULTS.coordinateDecimals)
  } else {
    for (const item of value) roundCoordinates(item)
  }
}
