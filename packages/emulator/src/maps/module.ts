// Maps service: geocoding, routes, places, address validation, map views (issue 3).
import type { ModuleContext, ServiceModule } from '../service-module.js'

export interface MapsOptions {}

export function createMapsModule(_ctx: ModuleContext, _options: MapsOptions = {}): ServiceModule {
  return { routes: [], reset() {} }
}
