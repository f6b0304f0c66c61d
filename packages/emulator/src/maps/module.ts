// Maps service: geocoding, routes, places, address validation, map views (issue 3). All of it is
// computed from real, bundled geodata (GeoNames cities, Natural Earth boundaries), which loads on
// first use and is shared by every emulator in the process; nothing here depends on state, so
// answers are the same for every seed and reset() has nothing to undo.
import type { RouteHandler } from '../resource-routes.js'
import type { Route } from '../router.js'
import type { ModuleContext, ServiceModule } from '../service-module.js'
import { validateAddress } from './address.js'
import { autocompletePlaces } from './autocomplete.js'
import { geocode } from './geocode.js'
import { getMapView } from './map-view.js'
import { searchPlaces } from './places.js'
import { computeRoute } from './routing.js'

const routes: Route<RouteHandler>[] = [
  { method: 'POST', pattern: '/v1/geocode', handler: geocode },
  { method: 'POST', pattern: '/v1/routes:compute', handler: computeRoute },
  { method: 'GET', pattern: '/v1/places', handler: searchPlaces },
  { method: 'GET', pattern: '/v1/places:autocomplete', handler: autocompletePlaces },
  { method: 'POST', pattern: '/v1/addresses:validate', handler: validateAddress },
  { method: 'GET', pattern: '/v1/views', handler: getMapView },
]

export function createMapsModule(_ctx: ModuleContext): ServiceModule {
  return { routes, reset() {} }
}
