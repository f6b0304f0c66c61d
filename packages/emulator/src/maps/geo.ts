// Small geometry helpers shared by the maps handlers (d3-geo works in [lng, lat] radians-free degrees).
import { geoDistance } from 'd3-geo'

/** Mean Earth radius (IUGG), so distances match what map services report. */
export const EARTH_RADIUS_M = 6_371_008.8

export interface LatLng {
  lat: number
  lng: number
}

/** GeoJSON order: west, south, east, north. `west > east` crosses the antimeridian. */
export type BBox = [number, number, number, number]

export const meters = (a: LatLng, b: LatLng): number => geoDistance([a.lng, a.lat], [b.lng, b.lat]) * EARTH_RADIUS_M

export const round = (value: number, decimals: number): number => {
  const f = 10 ** decimals
  return Math.round(value * f) / f
}

/** Case- and diacritic-insensitive key: "São Paulo" and "sao paulo" meet. The contract's, as autocomplete matches by it. */
export { foldText as fold } from '@tandem/contract'

/** Longitude intervals as non-wrapping pieces, so wrapped boxes compare simply. */
function pieces(west: number, east: number): [number, number][] {
  return west <= east
    ? [[west, east]]
    : [
        [west, 180],
        [-180, east],
      ]
}

export function bboxesIntersect(a: BBox, b: BBox): boolean {
  if (a[1] > b[3] || b[1] > a[3]) return false
  return pieces(a[0], a[2]).some(([w1, e1]) => pieces(b[0], b[2]).some(([w2, e2]) => w1 <= e2 && w2 <= e1))
}

export function bboxContains(box: BBox, p: LatLng): boolean {
  return p.lat >= box[1] && p.lat <= box[3] && pieces(box[0], box[2]).some(([w, e]) => p.lng >= w && p.lng <= e)
}
