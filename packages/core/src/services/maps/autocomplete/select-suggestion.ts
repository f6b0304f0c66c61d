import type { LatLng } from '@tandem/contract'
import type { RequestClient } from '../../../client-request.js'
import { ApiError } from '../../../errors.js'
import type { CallOptions } from '../../../types.js'
import { validateAddress } from '../address.js'
import { geocode } from '../geocode.js'
import type { GeocodeResult, PlaceSuggestion } from '../types.js'
import type { AutocompleteSelection } from './types.js'

// Squared degrees: enough to rank candidates that share a name but lie in different towns.
const apart = (a: LatLng, b: LatLng) => (a.lat - b.lat) ** 2 + (a.lng - b.lng) ** 2

/**
 * A suggestion's full place (its country, place id), then for a street or an address the service's
 * check of it, which needs that country: 1 request for a city, 2 otherwise. A name is not unique
 * (Portland, Maine and Oregon), so a city is found by reverse geocoding its point and keeping its
 * own id; a street by its text, keeping its own id or else the result nearest its point.
 */
export async function selectSuggestion(
  client: RequestClient,
  suggestion: PlaceSuggestion,
  options?: CallOptions,
): Promise<AutocompleteSelection> {
  const { id, kind, location } = suggestion
  const city = kind === 'city'
  const { results } = await geocode(client, city ? { location } : { query: suggestion.text }, options)
  const place =
    results.find((r) => r.placeId === id) ??
    (city
      ? undefined
      : results.reduce<GeocodeResult | undefined>(
          (a, r) => (a && apart(a.location, location) <= apart(r.location, location) ? a : r),
          undefined,
        ))
  if (!place) throw new ApiError(`maps: no place for the suggestion ${id}`, { code: 'not_found', status: 404 })
  if (city) return { place, validation: null }
  const locality = suggestion.secondaryText.split(',')[0]?.trim()
  const validation = await validateAddress(
    client,
    { regionCode: place.countryCode, addressLines: [suggestion.mainText], ...(locality ? { locality } : {}) },
    options,
  )
  return { place, validation }
}
