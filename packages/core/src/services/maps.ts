import { RESOURCE_FIELDS } from '@tandem/contract'
import type { ServiceClient } from '../base-client.js'
import { httpOf, type RequestClient } from '../client-request.js'
import { createCollection } from '../collection.js'
import type { Http } from '../http.js'
import { computeRoute } from './maps/route.js'
import { geocode } from './maps/geocode.js'
import { getMapView } from './maps/map-view.js'
import { searchPlaces } from './maps/places.js'
import { validateAddress } from './maps/address.js'
import { autocompletePlaces } from './maps/autocomplete-places.js'
import type { MapsService } from './maps/types.js'

// The maps service (docs/services/maps.md). Each call is a function of its own (`geocode(client,
// params)`), so an app ships only those it imports; `maps(client)` gathers them on one object.
// Inputs are checked before anything is sent, inside the promise: a bad input rejects.

export { autocompletePlaces, computeRoute, geocode, getMapView, searchPlaces, validateAddress }
export { decodePolyline } from './maps/polyline.js'
export { createAutocomplete, type AutocompleteClient } from './maps/autocomplete/create-autocomplete.js'
export { AUTOCOMPLETE_DEFAULTS } from './maps/autocomplete/defaults.js'
export { degradation } from './maps/autocomplete/degradation.js'
export type * from './maps/types.js'
export type * from './maps/autocomplete/types.js'

/** Every maps call on one object, bound to a pipeline. */
export function createMapsService(http: Http): MapsService {
  const client: RequestClient = { request: http }
  return {
    geocode: (params, options) => geocode(client, params, options),
    computeRoute: (params, options) => computeRoute(client, params, options),
    searchPlaces: (params, options) => searchPlaces(client, params, options),
    autocompletePlaces: (params, options) => autocompletePlaces(client, params, options),
    validateAddress: (params, options) => validateAddress(client, params, options),
    getMapView: (params, options) => getMapView(client, params, options),
  }
}

/**
 * The maps service for a client, with its generic `resources` collection (`@tandem/core/maps`).
 * It keeps every maps call; an app that calls one or two imports them instead (`geocode(client, …)`).
 */
export function maps(client: RequestClient): ServiceClient & MapsService {
  return {
    resources: createCollection(httpOf(client), 'maps', 'resources', RESOURCE_FIELDS),
    ...createMapsService(client.request),
  }
}
