// The place shape every maps answer shares (geocode results, places, route endpoints by id).
import { cityByPlaceId, majorCities, type City } from './cities.js'
import { bordered, countryByCode, countryName, type Country } from './countries.js'
import type { Place } from '@tandem/contract'
import { streetByPlaceId, streetLine, streetPlaceId, type Street } from './streets.js'

/** The contract's `Place`. */
export type PlaceResult = Place

const COUNTRY_PREFIX = 'country_'

export function cityResult(c: City): PlaceResult {
  return {
    name: c.name,
    formattedAddress: `${c.name}, ${countryName(c.country)}`,
    location: c.location,
    countryCode: c.country,
    placeId: c.placeId,
    types: c.capital ? ['city', 'capital'] : ['city'],
    population: c.population,
  }
}

/** A country's point is its boundary's centroid, or its capital for the small states without one. */
export function countryResult(c: Country): PlaceResult | undefined {
  bordered() // boundaries (and so centroids) load on first use
  const capital = majorCities().find((city) => city.country === c.code && city.capital)
  const location = c.centroid ?? capital?.location
  if (!location) return undefined
  return {
    name: c.name,
    formattedAddress: c.name,
    location,
    countryCode: c.code,
    placeId: `${COUNTRY_PREFIX}${c.code}`,
    types: ['country'],
  }
}

/**
 * A street address. The contract's place types (city, capital, country) have no word for a street,
 * so its `types` is empty rather than a claim that it is a city.
 */
export function streetResult(street: Street, name: string = street.name, number?: string): PlaceResult {
  const line = streetLine(street, name, number)
  return {
    name: line,
    formattedAddress: `${line}, ${street.locality}, ${countryName(street.country)}`,
    location: street.location,
    countryCode: street.country,
    placeId: streetPlaceId(street, number),
    types: [],
  }
}

/** Resolves a place id from any maps answer. */
export function findPlace(placeId: string): PlaceResult | undefined {
  if (placeId.startsWith(COUNTRY_PREFIX)) {
    const country = countryByCode(placeId.slice(COUNTRY_PREFIX.length))
    return country && countryResult(country)
  }
  const address = streetByPlaceId(placeId)
  if (address) return streetResult(address.street, address.street.name, address.number)
  const city = cityByPlaceId(placeId)
  return city && cityResult(city)
}
