// The maps REST shapes and refusals, over raw HTTP: geocoding, routes, places.
import { decode } from '@googlemaps/polyline-codec'
import { describe, expect, it } from 'vitest'
import { LISBON, PORTO, ok, refused, type Page, type Place, useMaps } from './maps-helpers.js'
import { authed } from './helpers.js'

const { emu, post, get } = useMaps()

describe('POST /maps/v1/geocode', () => {
  it('geocodes forward, with a country qualifier, a country, and a town below the big-city cut', async () => {
    const porto = await ok<{ results: Place[] }>(post('geocode', { query: 'porto, pt' }))
    expect(porto.results).toHaveLength(1)
    expect(porto.results[0]).toMatchObject({ name: 'Porto', countryCode: 'PT', types: ['city'] })
    const country = await ok<{ results: Place[] }>(post('geocode', { query: 'Portugal' }))
    expect(country.results[0]).toMatchObject({ name: 'Portugal', placeId: 'country_PT', types: ['country'] })
    expect(country.results[0]?.location.lat).toBeGreaterThan(37)
    const sintra = await ok<{ results: Place[] }>(post('geocode', { query: 'Óbidos, Portugal' }))
    expect(sintra.results[0]).toMatchObject({ name: 'Óbidos', countryCode: 'PT' })
    const none = await ok<{ results: Place[] }>(post('geocode', { query: 'Xqzzyvv' }))
    expect(none.results).toEqual([])
  })

  it('reverse-geocodes to the nearest city of the country the point is in', async () => {
    const { results } = await ok<{ results: Place[] }>(post('geocode', { location: { lat: 52.52, lng: 13.405 } }))
    expect(results.map((r) => [r.name, r.countryCode])).toEqual([
      ['Berlin', 'DE'],
      ['Germany', 'DE'],
    ])
  })

  it('refuses bad bodies naming the field', async () => {
    await refused(post('geocode', { query: 'x', location: LISBON }), 400, 'invalid_parameter', 'location')
    await refused(post('geocode', {}), 400, 'invalid_parameter', 'query')
    await refused(post('geocode', { location: { lat: 'x', lng: 0 } }), 400, 'invalid_parameter', 'location.lat')
    await refused(authed(emu(), '/maps/v1/geocode', { method: 'POST' }), 400, 'invalid_body')
    await refused(get('geocode'), 405, 'method_not_allowed')
  })

  it('needs the maps scope', async () => {
    const token = await emu().mintToken({ scope: ['support'] })
    await refused(authed(emu(), '/maps/v1/places', { token }), 403, 'insufficient_scope')
  })
})

describe('POST /maps/v1/routes:compute', () => {
  it('answers the documented shape, the same every time', async () => {
    const body = { origin: LISBON, destination: PORTO, mode: 'walk' }
    const route = await ok<{
      mode: string
      distanceMeters: number
      durationSeconds: number
      polyline: string
      legs: unknown[]
      bounds: number[]
    }>(post('routes:compute', body))
    expect(Object.keys(route).sort()).toEqual([
      'bounds',
      'distanceMeters',
      'durationSeconds',
      'legs',
      'mode',
      'polyline',
    ])
    expect(route.durationSeconds).toBe(Math.round(route.distanceMeters / (5 / 3.6)))
    const points = decode(route.polyline)
    expect(points.length).toBeGreaterThan(20)
    expect(points[0]).toEqual([LISBON.lat, LISBON.lng])
    expect(await ok(post('routes:compute', body))).toEqual(route)
  })

  it('routes between place ids', async () => {
    const { results } = await ok<{ results: Place[] }>(post('geocode', { query: 'Madrid' }))
    const madrid = results[0]
    const route = await ok<{ legs: { start: unknown; end: unknown }[] }>(
      post('routes:compute', {
        origin: { placeId: 'country_PT' },
        destination: { placeId: madrid?.placeId },
        mode: 'drive',
      }),
    )
    expect(route.legs[0]?.end).toEqual(madrid?.location)
  })

  it('refuses impossible routes with route_not_found', async () => {
    await refused(
      post('routes:compute', { origin: LISBON, destination: { lat: 40.71, lng: -74.0 }, mode: 'drive' }),
      422,
      'route_not_found',
    )
    await refused(
      post('routes:compute', { origin: { lat: 30, lng: -40 }, destination: LISBON, mode: 'drive' }),
      422,
      'route_not_found',
    )
    await refused(
      post('routes:compute', { origin: LISBON, destination: { lat: 52.52, lng: 13.405 }, mode: 'walk' }),
      422,
      'route_not_found',
    )
  })

  it('refuses bad input and unknown places', async () => {
    await refused(
      post('routes:compute', { origin: LISBON, destination: PORTO, mode: 'fly' }),
      400,
      'invalid_parameter',
      'mode',
    )
    await refused(
      post('routes:compute', { origin: LISBON, destination: PORTO, waypoints: [{ lat: 0 }], mode: 'drive' }),
      400,
      'invalid_parameter',
      'waypoints[0].lng',
    )
    await refused(
      post('routes:compute', { origin: LISBON, destination: PORTO, waypoints: Array(26).fill(LISBON), mode: 'drive' }),
      400,
      'invalid_parameter',
      'waypoints',
    )
    await refused(
      post('routes:compute', { origin: { placeId: 'city_0' }, destination: PORTO, mode: 'drive' }),
      404,
      'not_found',
      'origin.placeId',
    )
  })
})

describe('GET /maps/v1/places', () => {
  it('walks every result exactly once with opaque cursors', async () => {
    const walk = async (limit: number) => {
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const page: Page = await ok<Page>(get(`places?query=san&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`))
        expect(page.data.length).toBeLessThanOrEqual(limit)
        seen.push(...page.data.map((p) => p.placeId))
        cursor = page.nextCursor
        if (cursor) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
      } while (cursor)
      return seen
    }
    const big = await walk(100)
    expect(big.length).toBeGreaterThan(100)
    expect(new Set(big).size).toBe(big.length)
    expect(await walk(37)).toEqual(big)
    const first = await ok<Page>(get('places?query=san&limit=100'))
    expect(first.data.every((p) => /(^| )san/i.test(p.name.normalize('NFD').replace(/\p{M}/gu, '')))).toBe(true)
  })

  it('searches near a point, nearest first, within the radius', async () => {
    const page = await ok<Page>(get(`places?near=${LISBON.lat},${LISBON.lng}&radiusMeters=20000&limit=100`))
    expect(page.data.length).toBeGreaterThan(3)
    expect(page.data.every((p) => (p.distanceMeters ?? Infinity) <= 20_000)).toBe(true)
    expect(page.nextCursor).toBeNull()
  })

  it('refuses bad parameters and foreign cursors', async () => {
    const first = await ok<Page>(get('places?query=san&limit=2'))
    await refused(get(`places?query=sal&limit=2&cursor=${first.nextCursor}`), 400, 'invalid_cursor', 'cursor')
    await refused(get('places?cursor=nope!'), 400, 'invalid_cursor')
    await refused(get('places?limit=101'), 400, 'invalid_parameter', 'limit')
    await refused(get('places?radiusMeters=10'), 400, 'invalid_parameter', 'near')
    await refused(get('places?near=91,0'), 400, 'invalid_parameter', 'near.lat')
    await refused(get('places?near=1,2,3'), 400, 'invalid_parameter', 'near')
    await refused(get('places?type=volcano'), 400, 'invalid_parameter', 'type')
  })
})
