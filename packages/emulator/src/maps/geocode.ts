// POST /v1/geocode: `{ query }` (forward: "Lisbon", "Porto, Portugal", "porto, pt") or `{ location }`
// (reverse: the nearest city of the country the point lies in, then that country). A street
// address ("Rua Augusta 100, Lisbon") is looked up in streets.ts, the list address validation uses.
import { countries as COUNTRIES } from 'countries-list'
import { HttpError } from '../http-errors.js'
import type { RouteHandler } from '../resource-routes.js'
import { citiesNamed, majorByName, majorCities, nearestCity } from './cities.js'
import { countryAt, countryByCode } from './countries.js'
import { DEFAULTS } from './defaults.js'
import { fold, type LatLng } from './geo.js'
import { invalid, requireBody, requireLatLng } from '../validate.js'
import { trimmedText } from './params.js'
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
  run: ({ body }) => {
    const input = requireBody(body)
    if (input.query !== undefined && input.location !== undefined)
      throw invalid('query', 'give either query or location, not both')
    if (input.location !== undefined)
      return { status: 200, body: { results: reverse(requireLatLng(input.location, 'location')) } }
    if (input.query === undefined)
      throw new HttpError(400, 'invalid_parameter', 'Give query or location.', [
        { field: 'query', message: 'is required (or location)' },
      ])
    return { status: 200, body: { results: forward(trimmedText(input.query, 'query')) } }
  },
}

export function forward(query: string): PlaceResult[] {
  const streets = streetAddresses(query)
  if (streets.length > 0) return streets.slice(0, DEFAULTS.geocodeResults)
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
  return results.slice(0, DEFAULTS.geocodeResults)
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
