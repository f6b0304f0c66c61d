// GET /maps/v1/places:autocomplete over HTTP: what a person typing an address or a city is offered.
import { describe, expect, it } from 'vitest'
import { useAutocomplete } from './maps-autocomplete-helpers.js'
import { refused } from './maps-helpers.js'
import { call, expectError, useEmulator } from './helpers.js'

const { suggest, raw, url, post } = useAutocomplete()
const GOOGLEPLEX = { lat: 37.422, lng: -122.0841 }
const AMPHITHEATRE = 'street:us-mountain-view-amphitheatre-parkway'

describe('GET /maps/v1/places:autocomplete', () => {
  it('word prefixes: cities by population, a street right after its city', async () => {
    const { suggestions, complete } = await suggest('mou', { limit: '10' })
    expect(complete).toBe(false)
    // Mountain View is not the biggest "mou…" city: without `near`, population decides.
    expect(suggestions.slice(0, 6).map((s) => [s.kind, s.mainText])).toEqual([
      ['city', 'Dehiwala-Mount Lavinia'],
      ['city', 'Moundou'],
      ['city', 'Mount Pleasant'],
      ['city', 'Mountain View'],
      ['street', 'Amphitheatre Parkway'],
      ['street', 'Castro Street'],
    ])
    expect(suggestions[3]).toMatchObject({ text: 'Mountain View, United States', secondaryText: 'United States' })
    expect(suggestions[4]).toMatchObject({
      id: AMPHITHEATRE,
      text: 'Amphitheatre Parkway, Mountain View, United States',
      secondaryText: 'Mountain View, United States',
    })
    expect(suggestions[4]).not.toHaveProperty('houseNumber')
    expect(suggestions[0]).not.toHaveProperty('distanceMeters')
  })

  it('"1600 amph": the street with that house number', async () => {
    const { suggestions, complete } = await suggest('1600 amph')
    expect(complete).toBe(true)
    // Then a city or two ("Amphoe Sikhiu", Thailand): a house number does not filter, it ranks.
    expect(suggestions.filter((s) => s.kind !== 'city')).toEqual([
      {
        id: AMPHITHEATRE,
        kind: 'address',
        text: '1600 Amphitheatre Parkway, Mountain View, United States',
        mainText: '1600 Amphitheatre Parkway',
        secondaryText: 'Mountain View, United States',
        houseNumber: '1600',
        location: GOOGLEPLEX,
      },
    ])
  })

  it('the whole address, typed with a comma, comes first', async () => {
    const { suggestions } = await suggest('1600 Amphitheatre Parkway, Mountain View')
    expect(suggestions[0]).toMatchObject({ id: AMPHITHEATRE, kind: 'address', houseNumber: '1600' })
  })

  it("a house number: the streets that have it first; one past a street's last is dropped", async () => {
    const withIt = await suggest('1600 s', { limit: '10' })
    const kinds = withIt.suggestions.map((s) => s.kind)
    expect(kinds[0]).toBe('address')
    expect(kinds.lastIndexOf('address')).toBeLessThan(kinds.findIndex((k) => k !== 'address'))
    // Infinite Loop stops at 6; Castro Street's numbers follow the country's order ("12A Castro Street").
    expect((await suggest('12 infinite')).suggestions[0]).toMatchObject({ kind: 'street', mainText: 'Infinite Loop' })
    expect((await suggest('12a castro st')).suggestions[0]).toMatchObject({
      kind: 'address',
      mainText: '12A Castro Street',
      houseNumber: '12A',
    })
    // Before the street or after it (issue 44): the label is the country's order either way.
    for (const input of ['Rua Augusta 100', '100 rua augusta', 'Rua Augusta 100, Lisbon'])
      expect((await suggest(input)).suggestions[0], input).toMatchObject({ mainText: 'Rua Augusta 100' })
  })

  it('matches case- and diacritic-insensitively, words in order', async () => {
    expect((await suggest('SAO PAU')).suggestions[0]).toMatchObject({ mainText: 'São Paulo', kind: 'city' })
    expect((await suggest('friedrichstraße')).suggestions[0]).toMatchObject({ mainText: 'Friedrichstraße' })
    expect((await suggest('view mountain')).suggestions.map((s) => s.mainText)).not.toContain('Mountain View')
  })

  it('complete is true exactly when every match fits in the limit', async () => {
    const all = await suggest('castro', { limit: '10' })
    expect(all.complete).toBe(true)
    const n = all.suggestions.length
    expect(n).toBeGreaterThan(1)
    const exactly = await suggest('castro', { limit: String(n) })
    expect(exactly).toEqual(all)
    const fewer = await suggest('castro', { limit: String(n - 1) })
    expect(fewer.complete).toBe(false)
    expect(fewer.suggestions).toEqual(all.suggestions.slice(0, n - 1))
    expect((await suggest('xqzzyvv')).suggestions).toEqual([])
    expect((await suggest('xqzzyvv')).complete).toBe(true)
    // The default limit is 5.
    expect((await suggest('mou')).suggestions).toHaveLength(5)
  })

  it('with near: nearest first, each with its distance', async () => {
    const { suggestions } = await suggest('mou', { near: `${GOOGLEPLEX.lat},${GOOGLEPLEX.lng}`, limit: '10' })
    expect(suggestions[0]).toMatchObject({ id: AMPHITHEATRE, distanceMeters: 0 })
    expect(
      suggestions
        .map((s) => s.mainText)
        .slice(1, 3)
        .sort(),
    ).toEqual(['Castro Street', 'Mountain View'])
    const distances = suggestions.map((s) => s.distanceMeters!)
    expect(distances).toEqual([...distances].sort((a, b) => a - b))
    expect(distances.at(-1)).toBeGreaterThan(10_000)
  })

  it('refuses a missing, blank or too long input and a bad limit or near, naming the field', async () => {
    await refused(raw('/maps/v1/places:autocomplete'), 400, 'invalid_parameter', 'input')
    await refused(raw(url('')), 400, 'invalid_parameter', 'input')
    await refused(raw(url('   ')), 400, 'invalid_parameter', 'input')
    await refused(raw(url('a'.repeat(201))), 400, 'invalid_parameter', 'input')
    expect((await suggest('a'.repeat(200))).suggestions).toEqual([])
    for (const limit of ['0', '11', '2.5', 'x'])
      await refused(raw(url('mou', { limit })), 400, 'invalid_parameter', 'limit')
    await refused(raw(url('mou', { near: '91,0' })), 400, 'invalid_parameter', 'near.lat')
    await refused(raw(url('mou', { near: 'here' })), 400, 'invalid_parameter', 'near')
  })

  it('answers only punctuation or a house number with the ranking, never as complete', async () => {
    const number = await suggest('1600')
    expect(number.complete).toBe(false)
    expect(number.suggestions[0]).toMatchObject({ kind: 'address', houseNumber: '1600' })
    expect((await suggest(',,')).complete).toBe(false)
  })

  it('its streets validate as addresses', async () => {
    const check = (addressLines: string[], locality: string, postalCode = '94043') =>
      post('addresses:validate', { regionCode: 'US', addressLines, locality, postalCode }).then(
        (r) => r.json() as Promise<{ verdict: { needsFixes: boolean }; address: { formattedAddress: string } }>,
      )
    const googleplex = await check(['1600 Amphitheatre Parkway'], 'Mountain View')
    expect(googleplex.verdict.needsFixes).toBe(false)
    expect(googleplex.address.formattedAddress).toBe('1600 Amphitheatre Parkway, 94043 Mountain View, United States')
    const typed = await check(['1600 amphitheatre parkway'], 'mountain view')
    expect(typed.verdict.needsFixes).toBe(false)
    expect(typed.address.formattedAddress).toBe('1600 Amphitheatre Parkway, 94043 Mountain View, United States')
    for (const [line, locality, postalCode] of [
      ['1 Infinite Loop', 'Cupertino', '95014'],
      ['1355 Market Street', 'San Francisco', '94103'],
      ['1600 Pennsylvania Avenue', 'Washington, D.C.', '20500'],
      ['100 Castro Street', 'Mountain View', '94041'],
    ] as const)
      expect((await check([line], locality, postalCode)).verdict.needsFixes, line).toBe(false)
  })
})

describe('autocomplete on a plan of 10 a minute', () => {
  const emu = useEmulator({ plans: { maps: { limit: 10, windowMs: 60_000 } } })

  it('spends the maps bucket as any maps read does', async () => {
    const token = await emu().mintToken()
    const remaining: (string | null)[] = []
    for (let i = 0; i < 10; i++) {
      const res = await call(emu(), '/maps/v1/places:autocomplete?input=lis', { token })
      expect(res.status).toBe(200)
      remaining.push(res.headers.get('ratelimit-remaining'))
    }
    expect(remaining.at(-1)).toBe('0')
    await expectError(await call(emu(), '/maps/v1/places:autocomplete?input=lisb', { token }), 429, 'rate_limited')
  })
})
