// GET /v1/places?query=&near=lat,lng&radiusMeters=&type=&limit=&cursor= — cities by name (any word
// prefix, case- and diacritic-insensitive), by distance, or both; biggest first, nearest first
// with `near`. The data never changes, so the opaque cursor is an offset bound to the search.
import { LIMITS, type PlaceType } from '@tandem/contract'
import { createHash } from 'node:crypto'
import { HttpError } from '../http-errors.js'
import type { RouteHandler } from '../resource-routes.js'
import { parseLimit } from '../resource-store.js'
import { majorCities, type City } from './cities.js'
import { fold, meters, type LatLng } from './geo.js'
import { invalid, latLngParam } from '../validate.js'
import { cityResult } from './results.js'

export const searchPlaces: RouteHandler = {
  write: false,
  run: ({ query }) => {
    const limit = parseLimit(query.get('limit'))
    // Lengths, patterns, ranges and the type are the contract's; the rules across params are here.
    const q = fold(query.get('query')?.trim() ?? '') || undefined
    const nearRaw = query.get('near')
    const near = nearRaw ? latLngParam(nearRaw, 'near') : undefined
    const radiusRaw = query.get('radiusMeters')
    if (radiusRaw && !near) throw invalid('near', 'is required with radiusMeters')
    const radius = radiusRaw ? Number(radiusRaw) : LIMITS.placesRadiusMeters.default
    const type = (query.get('type') ?? 'city') as PlaceType
    const search = JSON.stringify([q, near, near && radius, type])
    const offset = query.get('cursor') ? readCursor(query.get('cursor') as string, search) : 0

    const matches = find(q, type, near, radius)
    const page = matches.slice(offset, offset + limit)
    const end = offset + page.length
    return {
      status: 200,
      body: {
        data: page.map(({ city, distance }) => ({
          ...cityResult(city),
          ...(distance === undefined ? {} : { distanceMeters: Math.round(distance) }),
        })),
        nextCursor: end < matches.length ? writeCursor(end, search) : null,
      },
    }
  },
}

function find(
  q: string | undefined,
  type: string,
  near: LatLng | undefined,
  radius: number,
): { city: City; distance?: number }[] {
  const out: { city: City; distance?: number }[] = []
  for (const city of majorCities()) {
    if (type === 'capital' && !city.capital) continue
    if (q && !(city.key.startsWith(q) || city.key.includes(` ${q}`))) continue
    if (!near) {
      out.push({ city })
      continue
    }
    // Cheap latitude cut before the great-circle distance (1° of latitude ≥ 110 km).
    if (Math.abs(city.location.lat - near.lat) * 110_000 > radius) continue
    const distance = meters(near, city.location)
    if (distance <= radius) out.push({ city, distance })
  }
  // Already biggest first (then by id); `near` orders by distance, keeping that as the tie-break.
  return near ? out.sort((a, b) => (a.distance ?? 0) - (b.distance ?? 0)) : out
}

const fingerprint = (search: string) => createHash('sha256').update(search).digest('base64url').slice(0, 10)

function writeCursor(offset: number, search: string): string {
  return Buffer.from(JSON.stringify({ o: offset, f: fingerprint(search) })).toString('base64url')
}

function readCursor(cursor: string, search: string): number {
  const bad = () =>
    new HttpError(400, 'invalid_cursor', 'The cursor is not valid for this search.', [
      { field: 'cursor', message: 'unrecognised cursor, or from another search' },
    ])
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw bad()
  let v: { o?: unknown; f?: unknown } | null
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as typeof v
  } catch {
    throw bad()
  }
  if (!v || v.f !== fingerprint(search) || typeof v.o !== 'number' || !Number.isSafeInteger(v.o) || v.o < 0) throw bad()
  return v.o
}
