// The maps REST shapes and refusals, over raw HTTP: address validation, streets, map views.
import { describe, expect, it } from 'vitest'
import { PORTO, ok, refused, type Place, useMaps } from './maps-helpers.js'

const { post, get } = useMaps()

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
