import type { RequestClient } from '../../../client-request.js'
import { ApiError } from '../../../errors.js'
import type { CallOptions } from '../../../types.js'
import { validateAddress } from '../address.js'
import { geocode } from '../geocode.js'
import type { PlaceSuggestion } from '../types.js'
import type { AutocompleteSelection } from './types.js'

/**
 * A suggestion's full place (its country, place id) by geocoding its text, then for a street or an
 * address the service's check of it, which needs that country: 1 request for a city, 2 otherwise.
 */
export async function selectSuggestion(
  client: RequestClient,
  suggestion: PlaceSuggestion,
  options?: CallOptions,
): Promise<AutocompleteSelection> {
  const { results } = await geocode(client, { query: suggestion.text }, options)
  const place = results[0]
  if (!place)
    throw new ApiError(`maps: no place for the suggestion ${suggestion.id}`, { code: 'not_found', status: 404 })
  if (suggestion.kind === 'city') return { place, validation: null }
  const locality = suggestion.secondaryText.split(',')[0]?.trim()
  const validation = await validateAddress(
    client,
    { regionCode: place.countryCode, addressLines: [suggestion.mainText], ...(locality ? { locality } : {}) },
    options,
  )
  return { place, validation }
}
