// The maps REST shapes and refusals, over raw HTTP.
import { decode } from '@googlemaps/polyline-codec'
import { beforeAll, describe, expect, it } from 'vitest'
import { authed, expectError, useEmulator } from './helpers.js'

const emu = useEmulator({ plans: { maps: false } })
const LISBON = { lat: 38.7167, lng: -9.1333 }
const PORTO = { lat: 41.1496, lng: -8.611 }

interface Place {
  name: string
  countryCode: string
  placeId: string
  types: string[]
  location: { lat: number; lng: number }
  distanceMeters?: number
}
interface Page {
  data: Place[]
  nextCursor: string | null
}

const post = (path: string, json: unknown) => authed(emu(), `/maps/v1/${path}`, { method: 'POST', json })
const get = (path: string) => authed(emu(), `/maps/v1/${path}`)
async function ok<T>(res: Promise<Response>): Promise<T> {
  const r = await res
  const body = (await r.json()) as T
  if (r.status !== 200) throw new Error(`expected 200, got ${r.status} ${JSON.stringify(body)}`)
  return body
}
async function refused(res: Promise<Response>, status: number, code: string, field?: string): Promise<void> {
  const body = await expectError(await res, status, code)
  if (field) expect(body.error.details?.[0]?.field).toBe(field)
}

// Loads the geodata once, so each test measures only its own work.
beforeAll(async () => {
  await ok(post('geocode', { query: 'Lisbon' }))
})

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

describe('POST /maps/v1/addresses:validate', () => {
  it('fixes case and separators, and does not ask for a postal code where there is none', async () => {
    const fixed = await ok<{
      verdict: unknown
      address: { components: { type: string; text: string; confirmation: string }[] }
    }>(
      post('addresses:validate', {
        regionCode: 'pt',
        addressLines: ['Rua de Santa Catarina 1'],
        locality: 'porto',
        postalCode: '4000123',
      }),
    )
    expect(fixed.verdict).toEqual({ complete: true, hasUnconfirmedComponents: false, needsFixes: false })
    expect(fixed.address.components.map((c) => [c.type, c.text, c.confirmation])).toEqual([
      ['address_line', 'Rua de Santa Catarina 1', 'confirmed'],
      ['locality', 'Porto', 'fixed'],
      ['postal_code', '4000-123', 'fixed'],
      ['country', 'Portugal', 'confirmed'],
    ])
    const hk = await ok<{ verdict: unknown }>(
      post('addresses:validate', { regionCode: 'HK', addressLines: ['1 Queen’s Road'], locality: 'Hong Kong' }),
    )
    expect(hk.verdict).toEqual({ complete: true, hasUnconfirmedComponents: false, needsFixes: false })
  })

  it('refuses unknown regions and bad lines', async () => {
    await refused(
      post('addresses:validate', { regionCode: 'ZZ', addressLines: ['a 1'] }),
      422,
      'unknown_region',
      'regionCode',
    )
    await refused(
      post('addresses:validate', { regionCode: 'P1', addressLines: ['a 1'] }),
      400,
      'invalid_parameter',
      'regionCode',
    )
    await refused(
      post('addresses:validate', { regionCode: 'PT', addressLines: [] }),
      400,
      'invalid_parameter',
      'addressLines',
    )
    await refused(
      post('addresses:validate', { regionCode: 'PT', addressLines: ['a 1', 5] }),
      400,
      'invalid_parameter',
      'addressLines[1]',
    )
  })
})

describe('streets: one list for the geocoder and the validator (issue 25)', () => {
  interface Validation {
    verdict: { complete: boolean; hasUnconfirmedComponents: boolean; needsFixes: boolean }
    address: { components: { type: string; text: string; confirmation: string; issue?: string }[] }
    geocode?: { location: { lat: number; lng: number }; placeId: string }
  }
  const validate = (json: unknown) => ok<Validation>(post('addresses:validate', json))
  const line = (v: Validation) => v.address.components.find((c) => c.type === 'address_line')

  it('geocodes a street address the validator confirms, usable as a route stop', async () => {
    const { results } = await ok<{ results: Place[] }>(post('geocode', { query: 'Rua Augusta 100, Lisbon' }))
    expect(results[0]).toMatchObject({ name: 'Rua Augusta 100', countryCode: 'PT', types: [] })
    expect(results[0]!.location.lat).toBeCloseTo(38.71, 1)
    const checked = await validate({ regionCode: 'PT', addressLines: ['Rua Augusta 100'], locality: 'Lisbon' })
    expect(line(checked)?.confirmation).toBe('confirmed')
    expect(checked.geocode?.placeId).toBe(results[0]!.placeId) // the same street, the same point
    // The number comes first where the country writes it first; a country qualifier narrows it.
    const london = await ok<{ results: Place[] }>(post('geocode', { query: '10 downing street, london, gb' }))
    expect(london.results.map((p) => p.name)).toEqual(['10 Downing Street'])
    const route = await ok<{ legs: unknown[] }>(
      post('routes:compute', {
        origin: { placeId: results[0]!.placeId },
        destination: { placeId: london.results[0]!.placeId },
        mode: 'drive',
      }),
    )
    expect(route.legs).toHaveLength(1)
    await refused(
      post('routes:compute', { origin: { placeId: 'street_pt-lisbon-nowhere:1' }, destination: PORTO, mode: 'drive' }),
      404,
      'not_found',
      'origin.placeId',
    )
  })

  it('does not confirm a made-up street, a made-up locality, a street of another city or an impossible number', async () => {
    const atlantis = await validate({
      regionCode: 'PT',
      addressLines: ['Nowhere Street 99999, Atlantis'],
      locality: 'Atlantis',
      postalCode: '1100-053',
    })
    expect(atlantis.verdict).toMatchObject({ hasUnconfirmedComponents: true, needsFixes: true })
    expect(atlantis.address.components.filter((c) => c.confirmation === 'confirmed').map((c) => c.type)).toEqual([
      'postal_code',
      'country',
    ])
    expect(atlantis.geocode).toBeUndefined()
    const madeUp = await validate({ regionCode: 'PT', addressLines: ['Nowhere Street 99999'], locality: 'Lisbon' })
    expect(line(madeUp)).toMatchObject({ confirmation: 'unconfirmed', issue: 'not a street known in Lisbon' })
    expect(madeUp.verdict.hasUnconfirmedComponents).toBe(true)
    const porto = await validate({ regionCode: 'PT', addressLines: ['Rua Augusta 100'], locality: 'Porto' })
    expect(line(porto)?.issue).toBe('not a street known in Porto (there is one in Lisbon)')
    const far = await validate({ regionCode: 'PT', addressLines: ['Rua Augusta 99999'], locality: 'Lisbon' })
    expect(line(far)).toMatchObject({ confirmation: 'unconfirmed', issue: 'Rua Augusta has no number 99999' })
    const nowhere = await ok<{ results: Place[] }>(post('geocode', { query: 'Nowhere Street 99999, Atlantis' }))
    expect(nowhere.results).toEqual([])
  })

  it('fixes the case of a known street, and leaves a flat line unconfirmed', async () => {
    const fixed = await validate({ regionCode: 'PT', addressLines: ['rua augusta 100', '3º Esq'], locality: 'Lisbon' })
    expect(fixed.address.components.slice(0, 2).map((c) => [c.text, c.confirmation])).toEqual([
      ['Rua Augusta 100', 'fixed'],
      ['3º Esq', 'unconfirmed'],
    ])
  })
})

describe('GET /maps/v1/views', () => {
  interface View {
    bounds: number[]
    zoom: number
    features: { type: string; features: { id: string; properties: { kind: string } }[] }
  }

  it('covers the world at zoom 0 with at most 200 cities', async () => {
    const view = await ok<View>(get('views?center=0,0&zoom=0'))
    expect(view.bounds).toEqual([-180, -85.051129, 180, 85.051129])
    const kinds = view.features.features.map((f) => f.properties.kind)
    expect(kinds.filter((k) => k === 'country').length).toBeGreaterThan(150)
    expect(kinds.filter((k) => k === 'city')).toHaveLength(200)
  })

  it('handles a box across the antimeridian', async () => {
    const view = await ok<View>(get('views?bbox=170,-25,-170,0'))
    expect(view.features.features.map((f) => f.id)).toContain('FJ')
    expect(view.zoom).toBeGreaterThanOrEqual(3)
  })

  it('refuses bad views', async () => {
    await refused(get('views'), 400, 'invalid_parameter', 'center')
    await refused(get('views?center=10,10'), 400, 'invalid_parameter', 'zoom')
    await refused(get('views?center=10,10&zoom=21'), 400, 'invalid_parameter', 'zoom')
    await refused(get('views?center=10,10&zoom=3&bbox=0,0,1,1'), 400, 'invalid_parameter', 'bbox')
    await refused(get('views?bbox=0,5,1,5'), 400, 'invalid_parameter', 'bbox')
    await refused(get('views?bbox=0,5,1'), 400, 'invalid_parameter', 'bbox')
    await refused(get('views?bbox=0,-95,1,5'), 400, 'invalid_parameter', 'bbox.south')
  })
})
