// The maps service's shapes (docs/services/maps.md). Limits come from wire.ts.
import { AUTOCOMPLETE_LIMIT, LAT_MAX, LIMITS, LNG_MAX, PLACE_TYPES, TRAVEL_MODES } from '../wire.js'
import { array, boolean, integer, number, object, page, ref, string, text, type Schema } from './helpers.js'

export const maps: Record<string, Schema> = {
  LatLng: object({
    lat: number({ minimum: -LAT_MAX, maximum: LAT_MAX }),
    lng: number({ minimum: -LNG_MAX, maximum: LNG_MAX }),
  }),
  BBox: array(number(), {
    minItems: 4,
    maxItems: 4,
    description: 'GeoJSON order: west, south, east, north (west > east crosses the antimeridian).',
  }),
  Place: object(
    {
      name: string(),
      formattedAddress: string(),
      location: ref('LatLng'),
      countryCode: string({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' }),
      placeId: string({ description: 'Usable as a route stop: `{ placeId }`.' }),
      types: array(string({ enum: ['city', 'capital', 'country'] })),
      population: integer({ minimum: 0 }),
      distanceMeters: number({ minimum: 0, description: 'From the point asked about, or from `near`.' }),
    },
    ['population', 'distanceMeters'],
  ),
  GeocodeRequest: {
    oneOf: [object({ query: text(LIMITS.query) }), object({ location: ref('LatLng') })],
  },
  GeocodeResponse: object({ results: array(ref('Place'), { maxItems: LIMITS.geocodeResults }) }),
  TravelMode: string({ enum: [...TRAVEL_MODES] }),
  Waypoint: { oneOf: [ref('LatLng'), object({ placeId: text(LIMITS.id) })] },
  RouteRequest: object(
    {
      origin: ref('Waypoint'),
      destination: ref('Waypoint'),
      waypoints: array(ref('Waypoint'), { maxItems: LIMITS.waypoints }),
      mode: ref('TravelMode'),
    },
    ['waypoints'],
  ),
  RouteLeg: object({
    distanceMeters: number({ minimum: 0 }),
    durationSeconds: number({ minimum: 0 }),
    start: ref('LatLng'),
    end: ref('LatLng'),
  }),
  Route: object({
    mode: ref('TravelMode'),
    distanceMeters: number({ minimum: 0 }),
    durationSeconds: number({ minimum: 0 }),
    polyline: string({ description: 'Google encoded polyline, precision 5.' }),
    legs: array(ref('RouteLeg')),
    bounds: ref('BBox'),
  }),
  PlaceType: string({ enum: [...PLACE_TYPES] }),
  PlacePage: page('Place', 'Places: the biggest first, or the nearest with `near`.'),
  PlaceSuggestion: object(
    {
      id: string({
        description: "Stable: the street's (`street:us-mountain-view-amphitheatre-parkway`) or the city's place id.",
      }),
      kind: string({
        enum: ['address', 'street', 'city'],
        description:
          "`address`: the street has the input's house number (typed before or after the street); `street`: it has " +
          'not, or none was typed.',
      }),
      text: string({ description: 'What the input shows once chosen: `mainText, secondaryText`.' }),
      mainText: string({ description: "The street line or the city's name (the bold part of a row)." }),
      secondaryText: string({ description: 'The locality and the country, or the country.' }),
      houseNumber: string({ description: "The input's house number, when the street has it (`address`)." }),
      location: ref('LatLng'),
      distanceMeters: number({ minimum: 0, description: 'From `near`, when given.' }),
    },
    ['houseNumber', 'distanceMeters'],
  ),
  PlaceAutocomplete: object(
    {
      suggestions: array(ref('PlaceSuggestion'), { maxItems: AUTOCOMPLETE_LIMIT.max }),
      complete: boolean,
    },
    [],
    {
      description:
        '`complete`: every match is here. An input that extends this one (the same numbers, words only longer or ' +
        "more) then matches a subset of these, by the rule of @tandem/contract's `suggestionMatches`; " +
        '`refineSuggestions` tells when they are its answer (each read with the same house number).',
    },
  ),
  AddressRequest: object(
    {
      regionCode: string({ pattern: '^[A-Za-z]{2}$' }),
      addressLines: array(text(LIMITS.addressLine), { minItems: 1, maxItems: LIMITS.addressLines }),
      locality: text(LIMITS.personName),
      postalCode: text(LIMITS.postalCode),
    },
    ['locality', 'postalCode'],
  ),
  AddressComponent: object(
    {
      type: string({ enum: ['address_line', 'locality', 'postal_code', 'country'] }),
      text: string({ description: 'As corrected when `fixed`.' }),
      confirmation: string({ enum: ['confirmed', 'unconfirmed', 'fixed', 'missing'] }),
      issue: string(),
    },
    ['issue'],
  ),
  AddressValidation: object(
    {
      verdict: object({ complete: boolean, hasUnconfirmedComponents: boolean, needsFixes: boolean }),
      address: object({ formattedAddress: string(), components: array(ref('AddressComponent')) }),
      geocode: object({ location: ref('LatLng'), placeId: string() }),
    },
    ['geocode'],
  ),
  MapFeature: object({
    type: string({ const: 'Feature' }),
    id: string(),
    properties: object(
      {
        kind: string({ enum: ['country', 'city'] }),
        name: string(),
        countryCode: string(),
        placeId: string(),
        population: integer({ minimum: 0 }),
        capital: boolean,
      },
      ['placeId', 'population', 'capital'],
    ),
    geometry: {
      oneOf: [
        object({ type: string({ const: 'Point' }), coordinates: array(number(), { minItems: 2, maxItems: 2 }) }),
        object({ type: string({ const: 'Polygon' }), coordinates: array(array(array(number()))) }),
        object({ type: string({ const: 'MultiPolygon' }), coordinates: array(array(array(array(number())))) }),
      ],
    },
  }),
  MapView: object({
    bounds: ref('BBox'),
    zoom: number({ minimum: LIMITS.zoom.min, maximum: LIMITS.zoom.max }),
    features: object({ type: string({ const: 'FeatureCollection' }), features: array(ref('MapFeature')) }),
  }),
}
