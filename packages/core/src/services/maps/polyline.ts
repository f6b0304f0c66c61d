import type { LatLng } from '@tandem/contract'

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
