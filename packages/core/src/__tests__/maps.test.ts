// The maps calls against a real emulator: real geodata, the documented shapes, local validation.
// Every test runs twice: through `client.maps` and through the functions (`geocode(client, …)`).
import { decode, encode } from '@googlemaps/polyline-codec'
import { describe, expect, it } from 'vitest'
import { isApiError, isValidationError, type LatLng } from '../index.js'
import {
  autocompletePlaces,
  computeRoute,
  decodePolyline,
  geocode,
  getMapView,
  searchPlaces,
  validateAddress,
  type MapsService,
} from '../entries/maps.js'
import { createClient as createFull, type TandemClient } from '../client.js'
import { createClient as createModular } from '../entries/client.js'
import { setup } from './helpers.js'

const LISBON = { lat: 38.7167, lng: -9.1333 }
const PORTO = { lat: 41.1496, lng: -8.611 }
const MOSCOW = { lat: 55.7558, lng: 37.6173 }

/** Rough planar distance in km, enough to say "near". */
const km = (a: LatLng, b: LatLng) =>
  Math.hypot(a.lat - b.lat, (a.lng - b.lng) * Math.cos((a.lat * Math.PI) / 180)) * 111.2

/** The same calls, on the client's object or as the standalone functions of @tandem/core/maps. */
const STYLES: [string, (client: TandemClient) => MapsService][] = [
  ['client.maps', (client) => client.maps],
  [
    'functions',
    (client) => ({
      geocode: (params, options) => geocode(client, params, options),
      computeRoute: (params, options) => computeRoute(client, params, options),
      searchPlaces: (params, options) => searchPlaces(client, params, options),
      autocompletePlaces: (params, options) => autocompletePlaces(client, params, options),
      validateAddress: (params, options) => validateAddress(client, params, options),
      getMapView: (params, options) => getMapView(client, params, options),
    }),
  ],
]

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e: unknown) => e,
  )
}

describe.each(STYLES)('%s', (_style, api) => {
  describe('geocode', () => {
    it('finds Lisbon in Portugal', async () => {
      const { client } = await setup()
      const { results } = await api(client).geocode({ query: 'Lisbon' })
      const [first] = results
      expect(first).toMatchObject({ name: 'Lisbon', countryCode: 'PT', formattedAddress: 'Lisbon, Portugal' })
      expect(first?.location.lat).toBeCloseTo(38.7, 1)
      expect(first?.location.lng).toBeCloseTo(-9.1, 1)
      expect(first?.types).toContain('capital')
      expect(first?.population).toBeGreaterThan(400_000)
      expect(first?.placeId).toMatch(/^city_\d+$/)
    })

    it('reverse-geocodes a Paris coordinate to Paris, France', async () => {
      const { client } = await setup()
      const { results } = await api(client).geocode({ location: { lat: 48.8566, lng: 2.3522 } })
      expect(results[0]).toMatchObject({ name: 'Paris', countryCode: 'FR' })
      expect(results[0]?.distanceMeters).toBeLessThan(10_000)
      expect(results.map((r) => r.types[0])).toEqual(['city', 'country'])
    })
  })

  describe('computeRoute', () => {
    it('drives Lisbon → Porto with honest distance, duration and polyline', async () => {
      const { client } = await setup()
      const route = await api(client).computeRoute({ origin: LISBON, destination: PORTO, mode: 'drive' })
      expect(route.distanceMeters).toBeGreaterThan(300_000 * 0.75)
      expect(route.distanceMeters).toBeLessThan(300_000 * 1.25)
      // 70 km/h average: duration follows from distance.
      expect(route.durationSeconds).toBeCloseTo(route.distanceMeters / (70 / 3.6), -1)
      expect(km(route.coordinates[0] as LatLng, LISBON)).toBeLessThan(0.01)
      expect(km(route.coordinates.at(-1) as LatLng, PORTO)).toBeLessThan(0.01)
      expect(route.coordinates).toEqual(decode(route.polyline).map(([lat, lng]) => ({ lat, lng })))
      expect(route.legs).toHaveLength(1)
      expect(route.legs[0]).toMatchObject({ distanceMeters: route.distanceMeters, start: LISBON, end: PORTO })
      const [west, south, east, north] = route.bounds
      expect([west, south, east, north].map((v) => Math.round(v * 10) / 10)).toEqual([-9.1, 38.7, -8.6, 41.1])
    })

    it('gives one leg per waypoint, summing to the total; place ids work as stops', async () => {
      const { client } = await setup()
      const coimbra = (await api(client).geocode({ query: 'Coimbra, Portugal' })).results[0]
      expect(coimbra?.countryCode).toBe('PT')
      const route = await api(client).computeRoute({
        origin: LISBON,
        destination: PORTO,
        waypoints: [{ placeId: coimbra?.placeId ?? '' }],
        mode: 'bicycle',
      })
      expect(route.legs).toHaveLength(2)
      expect(route.legs.reduce((s, l) => s + l.distanceMeters, 0)).toBe(route.distanceMeters)
      expect(route.legs.reduce((s, l) => s + l.durationSeconds, 0)).toBe(route.durationSeconds)
      expect(route.legs[0]?.end).toEqual(coimbra?.location)
      expect(route.legs[1]?.start).toEqual(coimbra?.location)
      // 16 km/h by bicycle.
      expect(route.durationSeconds / 3600).toBeCloseTo(route.distanceMeters / 1000 / 16, 0)
    })

    it('refuses an impossible walk with route_not_found', async () => {
      const { client } = await setup()
      const error = await rejection(api(client).computeRoute({ origin: LISBON, destination: MOSCOW, mode: 'walk' }))
      expect(isApiError(error) && error.status === 422 && error.code === 'route_not_found').toBe(true)
    })
  })

  describe('searchPlaces', () => {
    it('pages through every result exactly once', async () => {
      const { client } = await setup()
      const all = await api(client).searchPlaces({ near: LISBON, radiusMeters: 100_000, limit: 100 })
      expect(all.nextCursor).toBeNull()
      expect(all.data.length).toBeGreaterThan(12)
      const walked: string[] = []
      for await (const place of api(client).searchPlaces({ near: LISBON, radiusMeters: 100_000, limit: 5 }))
        walked.push(place.placeId)
      expect(walked).toEqual(all.data.map((p) => p.placeId))
      expect(new Set(walked).size).toBe(walked.length)
      // Nearest first.
      const distances = all.data.map((p) => p.distanceMeters ?? -1)
      expect(distances).toEqual([...distances].sort((a, b) => a - b))
      expect(all.data[0]?.name).toBe('Lisbon')
    })

    it('finds by name whatever the case and diacritics, and filters capitals', async () => {
      const { client } = await setup()
      const page = await api(client).searchPlaces({ query: 'SAO PAULO', limit: 3 })
      expect(page.data[0]).toMatchObject({ name: 'São Paulo', countryCode: 'BR' })
      const capitals = await api(client).searchPlaces({ type: 'capital', limit: 10 })
      expect(capitals.data).toHaveLength(10)
      expect(capitals.data.every((p) => p.types.includes('capital'))).toBe(true)
      expect(capitals.nextCursor).toEqual(expect.any(String))
    })
  })

  describe('validateAddress', () => {
    const address = { regionCode: 'PT', addressLines: ['Rua Augusta 100'], locality: 'Lisbon', postalCode: '1100-053' }

    it('confirms a complete address and geocodes its locality', async () => {
      const { client } = await setup()
      const result = await api(client).validateAddress(address)
      expect(result.verdict).toEqual({ complete: true, hasUnconfirmedComponents: false, needsFixes: false })
      expect(result.address.formattedAddress).toBe('Rua Augusta 100, 1100-053 Lisbon, Portugal')
      expect(result.address.components.map((c) => c.confirmation)).toEqual([
        'confirmed',
        'confirmed',
        'confirmed',
        'confirmed',
      ])
      expect(result.geocode?.location.lat).toBeCloseTo(38.7, 1)
    })

    it('flags a bad postal code, and fixes one that only lacks its separator', async () => {
      const { client } = await setup()
      const bad = await api(client).validateAddress({ ...address, postalCode: '11' })
      expect(bad.verdict).toEqual({ complete: true, hasUnconfirmedComponents: true, needsFixes: true })
      expect(bad.address.components.find((c) => c.type === 'postal_code')).toMatchObject({
        confirmation: 'unconfirmed',
        issue: expect.any(String),
      })
      const fixed = await api(client).validateAddress({ ...address, postalCode: '1100053' })
      expect(fixed.verdict.needsFixes).toBe(false)
      expect(fixed.address.components.find((c) => c.type === 'postal_code')).toMatchObject({
        text: '1100-053',
        confirmation: 'fixed',
      })
    })

    it('flags an unknown locality and a missing one', async () => {
      const { client } = await setup()
      const unknown = await api(client).validateAddress({ ...address, locality: 'Atlantis' })
      expect(unknown.verdict).toMatchObject({ hasUnconfirmedComponents: true, needsFixes: true })
      expect(unknown.geocode).toBeUndefined()
      const { locality: _, ...withoutLocality } = address
      const missing = await api(client).validateAddress(withoutLocality)
      expect(missing.verdict).toEqual({ complete: false, hasUnconfirmedComponents: false, needsFixes: true })
    })

    it('refuses an unknown region on the service side', async () => {
      const { client } = await setup()
      const error = await rejection(api(client).validateAddress({ ...address, regionCode: 'ZZ' }))
      expect(isApiError(error) && error.status === 422 && error.code === 'unknown_region').toBe(true)
    })
  })

  describe('getMapView', () => {
    it('shows the countries and biggest cities around a center', async () => {
      const { client } = await setup()
      const view = await api(client).getMapView({ center: LISBON, zoom: 6 })
      const [west, south, east, north] = view.bounds
      expect(west < LISBON.lng && LISBON.lng < east && south < LISBON.lat && LISBON.lat < north).toBe(true)
      expect(view.zoom).toBe(6)
      const features = view.features.features
      expect(view.features.type).toBe('FeatureCollection')
      expect(features.find((f) => f.id === 'PT')).toMatchObject({
        properties: { kind: 'country', name: 'Portugal' },
        geometry: { type: expect.stringMatching(/Polygon/) },
      })
      const cities = features.filter((f) => f.properties.kind === 'city')
      expect(cities.length).toBeGreaterThan(0)
      expect(cities.length).toBeLessThanOrEqual(200)
      expect(cities.some((f) => f.properties.name === 'Lisbon')).toBe(true)
    })

    it('fits a bounding box with a zoom', async () => {
      const { client } = await setup()
      const view = await api(client).getMapView({ bbox: [-10, 36, 4, 44] })
      expect(view.bounds).toEqual([-10, 36, 4, 44])
      expect(view.zoom).toBeGreaterThanOrEqual(4)
      expect(view.features.features.map((f) => f.id)).toEqual(expect.arrayContaining(['PT', 'ES']))
    })
  })

  describe('validation', () => {
    it('refuses bad input locally, naming the field, without sending anything', async () => {
      const { emu, client } = await setup()
      const maps = api(client)
      const cases: [() => Promise<unknown>, string][] = [
        [() => maps.geocode({ query: '' }), 'query'],
        [() => maps.geocode({ location: { lat: 91, lng: 0 } }), 'location.lat'],
        [() => maps.geocode(null as never), 'params'],
        [() => maps.computeRoute({ origin: { lat: 0, lng: 200 }, destination: PORTO, mode: 'drive' }), 'origin.lng'],
        [
          () => maps.computeRoute({ origin: LISBON, destination: { placeId: '' }, mode: 'drive' }),
          'destination.placeId',
        ],
        [
          () =>
            maps.computeRoute({ origin: LISBON, destination: PORTO, waypoints: [LISBON, 'x' as never], mode: 'drive' }),
          'waypoints[1]',
        ],
        [() => maps.computeRoute({ origin: LISBON, destination: PORTO, mode: 'fly' as never }), 'mode'],
        [() => maps.searchPlaces({ limit: 101 }), 'limit'],
        [() => maps.searchPlaces({ radiusMeters: 1000 }), 'near'],
        [() => maps.searchPlaces({ near: LISBON, radiusMeters: 0 }), 'radiusMeters'],
        [() => maps.searchPlaces({ type: 'volcano' as never }), 'type'],
        [() => maps.validateAddress({ regionCode: 'PRT', addressLines: ['x'] }), 'regionCode'],
        [() => maps.validateAddress({ regionCode: 'PT', addressLines: ['ok 1', ' '] }), 'addressLines[1]'],
        [() => maps.validateAddress({ regionCode: 'PT', addressLines: 'Rua' as never }), 'addressLines'],
        [() => maps.validateAddress({ regionCode: 'PT', addressLines: [] }), 'addressLines'], // an empty form (issue 19)
        [() => maps.getMapView({ center: LISBON, zoom: 21 }), 'zoom'],
        [() => maps.getMapView({ bbox: [0, 10, 5, 5] }), 'bbox'],
        [() => maps.getMapView({ bbox: [0, 10, 500, 20] }), 'bbox[2]'],
      ]
      for (const [call, field] of cases) {
        let promise: Promise<unknown> | undefined
        expect(() => (promise = call())).not.toThrow() // rejects, never throws synchronously
        const error = await rejection(promise as Promise<unknown>)
        expect(isValidationError(error) ? error.field : error, field).toBe(field)
      }
      expect(emu.stats.requests).toBe(0)
    })
  })
})

describe('the functions', () => {
  it('given something other than a client, reject with a ValidationError on client, sending nothing', async () => {
    for (const call of [
      () => geocode(undefined as never, { query: 'Lisbon' }),
      () => computeRoute({} as never, { origin: LISBON, destination: PORTO, mode: 'drive' }),
      () => searchPlaces(null as never, { query: 'Lisbon' }),
      () => validateAddress({ request: 'x' } as never, { regionCode: 'PT', addressLines: ['Rua Augusta 100'] }),
      () => getMapView(undefined as never, { center: LISBON, zoom: 6 }),
    ]) {
      let promise: Promise<unknown> | undefined
      expect(() => (promise = call())).not.toThrow()
      const error = await rejection(promise as Promise<unknown>)
      expect(isValidationError(error) ? error.field : error).toBe('client')
    }
  })

  it('take the modular client and the full one alike', async () => {
    const { emu, client } = await setup()
    const modular = createModular({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    const full = createFull({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    for (const c of [modular, full, client]) {
      const { results } = await geocode(c, { query: 'Porto' })
      expect(results[0]).toMatchObject({ name: 'Porto', countryCode: 'PT' })
    }
    expect(emu.stats.requests).toBeGreaterThanOrEqual(3)
  })
})

describe('decodePolyline', () => {
  it('decodes as @googlemaps/polyline-codec does', () => {
    const path: [number, number][] = []
    for (let i = 0; i < 200; i++) path.push([Math.sin(i) * 89.9, Math.cos(i * 1.7) * 179.9])
    path.push([0, 0], [-0.00001, 0.00001], [89.99999, -179.99999])
    const encoded = encode(path, 5)
    expect(decodePolyline(encoded)).toEqual(decode(encoded, 5).map(([lat, lng]) => ({ lat, lng })))
    expect(decodePolyline('')).toEqual([])
  })
})
