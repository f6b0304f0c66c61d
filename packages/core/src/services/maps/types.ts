import type {
  AddressComponent,
  AddressRequest,
  AddressValidation,
  BBox,
  GeocodeRequest,
  LatLng,
  MapFeature,
  MapView,
  Place,
  PlaceAutocomplete,
  PlaceSearchQuery,
  PlaceSuggestion,
  PlaceType,
  Route,
  RouteLeg,
  RouteRequest,
  TravelMode,
  Waypoint,
} from '@tandem/contract'
import type { PagePromise } from '../../collection.js'
import type { CallOptions } from '../../types.js'

// The maps service's types: the contract's shapes, and what the client adds (docs/services/maps.md).

export type {
  AddressComponent,
  AddressValidation,
  BBox,
  MapFeature,
  MapView,
  Place,
  PlaceAutocomplete,
  PlaceSuggestion,
  PlaceType,
  RouteLeg,
  TravelMode,
  Waypoint,
}

export type GeocodeParams = GeocodeRequest

/** A geocoding answer: a place (with `distanceMeters` from the point asked about, when reverse). */
export type GeocodeResult = Place

export type RouteParams = RouteRequest

export interface ComputedRoute extends Route {
  /** `polyline`, decoded. */
  coordinates: LatLng[]
}

/** The contract's search, with `near` as a point (sent as `lat,lng`). */
export type PlaceSearchParams = Omit<PlaceSearchQuery, 'near'> & { near?: LatLng }

/** What `autocompletePlaces` asks: `input` as typed, `near` to rank by distance, `limit` 1 to 10 (5). */
export interface AutocompleteParams {
  input: string
  near?: LatLng
  limit?: number
}

export type AddressParams = AddressRequest

export type AddressConfirmation = AddressComponent['confirmation']

export type MapViewParams = { center: LatLng; zoom: number } | { bbox: BBox }

/** Every maps call on one object (`maps(client)`, `client.maps`); each is also a function of its own. */
export interface MapsService {
  /** Forward (`{ query }`) or reverse (`{ location }`) geocoding. */
  geocode(params: GeocodeParams, options?: CallOptions): Promise<{ results: GeocodeResult[] }>
  computeRoute(params: RouteParams, options?: CallOptions): Promise<ComputedRoute>
  /** Await for one page, `for await` for every place. */
  searchPlaces(params?: PlaceSearchParams, options?: CallOptions): PagePromise<Place>
  /** Suggestions as the user types an address or a city (`createAutocomplete` debounces and caches them). */
  autocompletePlaces(params: AutocompleteParams, options?: CallOptions): Promise<PlaceAutocomplete>
  validateAddress(params: AddressParams, options?: CallOptions): Promise<AddressValidation>
  getMapView(params: MapViewParams, options?: CallOptions): Promise<MapView>
}
