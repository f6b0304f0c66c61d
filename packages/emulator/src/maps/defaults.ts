// Every tunable of the maps emulator in one place. Input limits are the contract's (LIMITS).

export const DEFAULTS = {
  /** Cities below this population are left out of geocoding, places and views (speed, and fewer hamlets). */
  minPopulation: 15_000,
  /** GeoNames feature code of a national capital. */
  capitalCode: 'PPLC',
  /**
   * GeoNames codes left out of the major cities: city sections (Berlin's "Mitte" would otherwise
   * answer for Berlin) and historical, abandoned or destroyed places. Address validation keeps them.
   */
  notCities: ['PPLX', 'PPLH', 'PPLQ', 'PPLW'],
  /** One polyline point every this many metres of great circle (at least 2 per leg). */
  polylineStepMeters: 10_000,
  maxPointsPerLeg: 500,
  /** Average speed (km/h), the factor from great circle to road length, and the longest route per mode. */
  modes: {
    drive: { kmh: 70, winding: 1.25, maxKm: 20_000 },
    walk: { kmh: 5, winding: 1.2, maxKm: 1_000 },
    bicycle: { kmh: 16, winding: 1.2, maxKm: 3_000 },
  },
  /** An endpoint farther than this from any country or city is at sea: no land route starts there. */
  maxOffshoreMeters: 50_000,
  /** The viewport a `center` + `zoom` view is computed for (CSS pixels, 256-px Web Mercator tiles). */
  viewport: { width: 1024, height: 768 },
  viewCities: 200,
  /** Boundary coordinates are rounded to this many decimals (about 11 m) to keep views small. */
  coordinateDecimals: 4,
} as const
