import { AUTOCOMPLETE_LIMIT, MAX_QUERY, PLACE_AUTOCOMPLETE_FIELDS, type LatLng } from '@tandem/contract'
import type { RequestClient } from '../../client-request.js'
import type { CallOptions, Query } from '../../types.js'
import { requireLatLng, requireNumber, requireString } from '../../validate.js'
import { ifPresent, mapsCall, point, shape } from './shape.js'
import type { AutocompleteParams, PlaceAutocomplete } from './types.js'

/**
 * Streets, addresses and cities whose words start with the input's (`"1600 amph"`): the endpoint
 * behind `createAutocomplete`. `complete` says every match is in `suggestions`. Async, so a bad
 * input rejects (a `ValidationError` naming the field) before anything is sent.
 */
export async function autocompletePlaces(
  client: RequestClient,
  params: AutocompleteParams,
  options?: CallOptions,
): Promise<PlaceAutocomplete> {
  const { near, ...query } = shape(params, {
    input: (v, f) => requireString(v, f, MAX_QUERY),
    near: ifPresent(requireLatLng),
    limit: ifPresent((v, f) => requireNumber(v, f, AUTOCOMPLETE_LIMIT.min, AUTOCOMPLETE_LIMIT.max, true)),
  })
  return mapsCall(
    client,
    'places:autocomplete',
    { query: { ...query, near: near && point(near as LatLng) } as Query },
    PLACE_AUTOCOMPLETE_FIELDS,
    options,
  )
}
