// @tandem/core/maps: each maps call as a function of its own (`geocode(client, params)`: an app
// ships only those it imports), and `maps(client)`, all of them on one object.
export {
  AUTOCOMPLETE_DEFAULTS,
  autocompletePlaces,
  computeRoute,
  createAutocomplete,
  createMapsService,
  decodePolyline,
  degradation,
  geocode,
  getMapView,
  maps,
  searchPlaces,
  validateAddress,
} from '../services/maps.js'
export type * from '../services/maps.js'
