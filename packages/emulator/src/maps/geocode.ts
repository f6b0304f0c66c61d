// POST /v1/geocode: `{ query }` (forward: "Lisbon", "Porto, Portugal", "porto, pt") or `{ location }`
// (reverse: the nearest city of the country the point lies in, then that country). A street
// address ("Rua Augusta 100, Lisbon") is looked up in streets.ts, the list address validation uses.
import { LIMITS, type GeocodeRequest } from '@tandem/contract'
import { countries as COUNTRIES } from 'countries-list'
import type { RouteHandler } from '../resource-routes.js'
import { citiesNamed, majorByName, majorCities, nearestCity } from './cities.js'
import { countryAt, countryByCode } from './countries.js'
import { fold, type LatLng } from './geo.js'
import { cityResult, countryResult, streetResult, type PlaceResult } from './results.js'
import { numberFits, parseStreetLine, streetName, streetsNamed } from './streets.js'

/** Folded country names and codes → alpha-2, for "City, Country" qualifiers and country queries. */
const countryKeys = new Map(
  Object.entries(COUNTRIES).flatMap(([code, c]) => [
    [fold(c.name), code],
    [code.toLowerCase(), code],
  ]),
)

export const geocode: RouteHandler = {
  write: true, // a POST with a body; nothing is stored
  // Either `{ query }` or `{ location }`: the contract's oneOf, already checked.
  run: ({ body }) => {
    const input = body as GeocodeRequest
    const results = 'location' in input ? reverse(input.location) : forward(input.query.trim())
    return { status: 200, body: { results } }
  },
}

export function forward(query: string): PlaceResult[] {
  const streets = streetAddresses(query)
  if (streets.length > 0) return streets.slice(0, LIMITS.geocodeResults)
  const [name = '', ...rest] = query.split(',').map(fold)
  const qualifier = countryKeys.get(rest.join(' ').trim())
  const inCountry = (code: string) => !qualifier || code === qualifier
  const results: PlaceResult[] = []
  // A query naming a country ("Portugal") means the country first.
  const named = countryKeys.get(name)
  const country = named && rest.length === 0 ? countryByCode(named) : undefined
  const countryHit = country && countryResult(country)
  if (countryHit) results.push(countryHit)
  let found = majorByName(name).filter((c) => inCountry(c.country))
  // Smaller towns by exact name, then bigger cities by prefix ("lisb" → Lisbon); biggest first.
  if (found.length === 0) found = citiesNamed(name).filter((c) => inCountry(c.country))
  if (found.length === 0 && name.length >= 2)
    found = majorCities().filter((c) => c.key.startsWith(name) && inCountry(c.country))
  for (const c of found) results.push(cityResult(c))
  return results.slice(0, LIMITS.geocodeResults)
}

/**
 * "Rua Augusta 100, Lisbon", "10 Downing Street, London, UK", "Gran Vía, Madrid": a street the
 * address validator knows (the same list), then optionally its city and country in any order. A
 * house number past the street's last one is dropped: the answer is then the street itself.
 */
function streetAddresses(query: string): PlaceResult[] {
  const [first = '', ...rest] = query.split(',').map((part) => part.trim())
  const { street, number } = parseStreetLine(first)
  let found = streetsNamed(street)
  for (const part of rest.map(fold).filter(Boolean)) {
    const country = countryKeys.get(part)
    found = found.filter((s) => (country ? s.country === country : fold(s.locality) === part))
  }
  return found.map((s) => streetResult(s, streetName(s, street), number && numberFits(s, number) ? number : undefined))
}

function reverse(p: LatLng): PlaceResult[] {
  const country = countryAt(p)
  const near = (country && nearestCity(p, country.code)) ?? nearestCity(p)
  const results: PlaceResult[] = []
  if (near) results.push({ ...cityResult(near.city), distanceMeters: Math.round(near.distance) })
  const countryHit = country && countryResult(country)
  if (countryHit) results.push(countryHit)
  return results
}
