// The maps service's REST paths: geocoding, routes, places and their autocomplete, address
// validation and map views.
import { AUTOCOMPLETE_LIMIT, LIMITS } from '../wire.js'
import type { Schema } from './helpers.js'
import { op, PAGE, query } from './operations.js'
import { integer, ref, string, text } from './schemas.js'

/** `lat,lng` and `west,south,east,north`: plain decimals (the ranges are checked by the service). */
const DECIMAL = '-?[0-9]+(\\.[0-9]+)?'
const LAT_LNG = `^${DECIMAL},${DECIMAL}$`
const BBOX = `^${DECIMAL}(,${DECIMAL}){3}$`

export const mapsPaths: Record<string, Schema> = {
  '/maps/v1/geocode': {
    post: op('geocode', 'maps', 'Forward or reverse geocoding', {
      body: 'GeocodeRequest',
      write: true,
      query: true,
      answers: { 200: 'GeocodeResponse' },
    }),
  },
  '/maps/v1/routes:compute': {
    post: op('computeRoute', 'maps', 'A route through the stops', {
      body: 'RouteRequest',
      write: true,
      query: true,
      answers: { 200: 'Route' },
    }),
  },
  '/maps/v1/places': {
    get: op('searchPlaces', 'maps', 'Search places', {
      parameters: [
        query(
          'query',
          string({ maxLength: LIMITS.query }),
          'Any word prefix of the name; case- and diacritic-insensitive.',
        ),
        query('near', string({ pattern: LAT_LNG }), '`lat,lng`: nearest first.'),
        query(
          'radiusMeters',
          integer({ minimum: 1, maximum: LIMITS.placesRadiusMeters.max, default: LIMITS.placesRadiusMeters.default }),
          'With `near`.',
        ),
        query('type', ref('PlaceType')),
        ...PAGE,
      ],
      answers: { 200: 'PlacePage' },
    }),
  },
  '/maps/v1/places:autocomplete': {
    get: op('autocompletePlaces', 'maps', 'Suggest addresses and cities as a person types', {
      description:
        'Every input word starts a word of the suggestion, in order (case- and diacritic-insensitive); a leading ' +
        'house number is kept apart and shown on the streets that have it. Nearest first with `near`; else the ' +
        "streets with the house number, then by population (a street by its city's, after the city).",
      parameters: [
        query('input', text(LIMITS.query), 'What the person typed so far.', true),
        query('near', string({ pattern: LAT_LNG }), '`lat,lng`: nearest first, with `distanceMeters`.'),
        query(
          'limit',
          integer({
            minimum: AUTOCOMPLETE_LIMIT.min,
            maximum: AUTOCOMPLETE_LIMIT.max,
            default: AUTOCOMPLETE_LIMIT.default,
          }),
        ),
      ],
      answers: { 200: 'PlaceAutocomplete' },
    }),
  },
  '/maps/v1/addresses:validate': {
    post: op('validateAddress', 'maps', 'Validate an address', {
      body: 'AddressRequest',
      write: true,
      query: true,
      answers: { 200: 'AddressValidation' },
    }),
  },
  '/maps/v1/views': {
    get: op('getMapView', 'maps', 'What a map shows', {
      description: 'Either `center` and `zoom` (a 1024×768 viewport), or `bbox`.',
      parameters: [
        query('center', string({ pattern: LAT_LNG }), '`lat,lng`, with `zoom`.'),
        query('zoom', integer({ minimum: LIMITS.zoom.min, maximum: LIMITS.zoom.max })),
        query('bbox', string({ pattern: BBOX }), '`west,south,east,north`.'),
      ],
      answers: { 200: 'MapView' },
    }),
  },
}
