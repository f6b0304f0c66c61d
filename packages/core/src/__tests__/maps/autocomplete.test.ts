// createAutocomplete against the emulator: how many requests typing costs (fast and slow typists,
// backspacing, pasting, a typo), stale requests aborted, select, and bad options refused.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { autocompletePlaces, createAutocomplete, type AutocompleteSnapshot } from '../../entries/maps.js'
import { isValidationError } from '../../index.js'
import { setup } from '../helpers.js'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { ADDRESS, ADDRESS_TEXT, countRequests, erase, settled, type } from './autocomplete-helpers.js'

afterEach(() => void vi.useRealTimers())

/** A client on a fresh emulator, an autocomplete store with the defaults, and its request count. */
async function start() {
  const { client, emu } = await setup()
  const requests = countRequests(client)
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  const ac = createAutocomplete(client)
  return { client, emu, ac, requests }
}

const first = (s: AutocompleteSnapshot) => s.suggestions[0]?.text

describe('autocompletePlaces', () => {
  it('answers a house number and a word prefix with the address, and refuses a bad limit before sending', async () => {
    const { client } = await setup()
    const requests = countRequests(client)
    const answer = await autocompletePlaces(client, { input: '1600 amph', limit: 3 })
    expect(answer.suggestions[0]).toMatchObject({ kind: 'address', houseNumber: '1600', text: ADDRESS_TEXT })
    expect(answer.suggestions.length).toBeLessThanOrEqual(3)
    await expect(autocompletePlaces(client, { input: 'porto', limit: 11 })).rejects.toMatchObject({ field: 'limit' })
    await expect(autocompletePlaces(client, { input: '' })).rejects.toMatchObject({ field: 'input' })
    expect(requests.sent()).toBe(1)
  })
})

describe('createAutocomplete: requests per typed address', () => {
  it('a fast typist (80 ms a character) costs one request: the debounce never ends mid-word', async () => {
    const { ac, requests } = await start()
    await type(ac, ADDRESS, 80)
    expect(ac.getSnapshot()).toMatchObject({ status: 'success', query: ADDRESS, error: null, degraded: null })
    expect(first(ac.getSnapshot())).toBe(ADDRESS_TEXT)
    expect(requests.sent()).toBeLessThanOrEqual(4) // the target
    expect(requests.sent()).toBe(1)
  })

  it('a slow typist (400 ms a character) stays within 4: once an answer is complete, the rest is filtered locally', async () => {
    const { ac, requests } = await start()
    const seen: string[] = []
    ac.subscribe(() => seen.push(ac.getSnapshot().status))
    await type(ac, ADDRESS, 400)
    expect(first(ac.getSnapshot())).toBe(ADDRESS_TEXT)
    expect(ac.getSnapshot().suggestions).toHaveLength(1)
    // "1600 Amp" (min 3 letters) is not complete (many towns start so), "1600 Amph" is: 2 requests.
    expect(requests.sent()).toBe(2)
    expect(seen).toContain('debouncing')
    expect(seen).toContain('loading')
  })

  it('backspacing over inputs seen or refined costs nothing; below minChars is idle', async () => {
    const { ac, requests } = await start()
    await type(ac, ADDRESS, 400)
    const before = requests.sent()
    await erase(ac, ADDRESS, '1600 Amp', 80)
    expect(ac.getSnapshot()).toMatchObject({ status: 'success', query: '1600 Amp' })
    expect(first(ac.getSnapshot())).toBe(ADDRESS_TEXT)
    await erase(ac, '1600 Amp', '1600 A', 80)
    expect(ac.getSnapshot()).toMatchObject({ status: 'idle', suggestions: [] })
    expect(requests.sent()).toBe(before)
  })

  it('pasting a whole address is one request', async () => {
    const { ac, requests } = await start()
    ac.setQuery(ADDRESS)
    await vi.advanceTimersByTimeAsync(200)
    await settled(ac)
    expect(first(ac.getSnapshot())).toBe(ADDRESS_TEXT)
    expect(requests.sent()).toBe(1)
  })

  it('a typo then its correction: the corrected input is refined from the answer before the typo', async () => {
    const { ac, requests } = await start()
    const typo = `${ADDRESS.slice(0, -4)}Veiw`
    await type(ac, typo, 80)
    expect(ac.getSnapshot()).toMatchObject({ status: 'success', suggestions: [] })
    await erase(ac, typo, `${ADDRESS.slice(0, -4)}V`, 80) // "…Mountain V": asked once
    await type(ac, ADDRESS, 80, `${ADDRESS.slice(0, -4)}V`) // extends it: filtered locally
    expect(first(ac.getSnapshot())).toBe(ADDRESS_TEXT)
    expect(requests.sent()).toBe(2)
  })

  it('a house number alone, or fewer letters than minChars, never asks', async () => {
    const { ac, requests } = await start()
    await type(ac, '1600 Am', 400)
    expect(ac.getSnapshot()).toMatchObject({ status: 'idle', query: '1600 Am', suggestions: [] })
    expect(requests.sent()).toBe(0)
  })
})

describe('createAutocomplete: stale requests, select, options', () => {
  it('a request whose input was replaced is aborted, and its answer never reaches the snapshot', async () => {
    let sending = 0 // attempts handed to fetch
    const { client, emu } = await setup({ client: { hooks: { onRequest: () => void sending++ } } })
    const requests = countRequests(client)
    const ac = createAutocomplete(client, { debounceMs: 10 })
    const snapshots: AutocompleteSnapshot[] = []
    ac.subscribe(() => snapshots.push(ac.getSnapshot()))
    emu.faults.latency(1_000, { count: 1 })
    ac.setQuery('1600 Amph')
    await waitUntil(() => sending === 1, { what: 'the request on its way' })
    ac.setQuery('Castro Street') // does not extend "1600 Amph": that answer can serve nothing now
    await waitUntil(() => ac.getSnapshot().status === 'success', { on: ac.subscribe, what: 'the new answer' })
    expect(first(ac.getSnapshot())).toBe('Castro Street, Mountain View, United States')
    await waitUntil(() => requests.aborted() === 1, { what: 'the abort' })
    expect(snapshots.filter((s) => s.query === '1600 Amph').map((s) => s.status)).not.toContain('success')
    expect(snapshots.flatMap((s) => s.suggestions).map((s) => s.kind)).not.toContain('address')
    expect(requests.sent()).toBe(1) // Castro Street
  })

  it('an input that extends the one in flight waits for its answer instead of asking again', async () => {
    const { client, emu } = await setup()
    const requests = countRequests(client)
    const ac = createAutocomplete(client, { debounceMs: 10 })
    await autocompletePlaces(client, { input: 'warm up' })
    emu.faults.latency(300, { count: 1 })
    ac.setQuery('1600 Amph')
    await waitUntil(() => ac.getSnapshot().status === 'loading', { on: ac.subscribe, what: 'the request' })
    ac.setQuery('1600 Amphitheatre')
    await waitUntil(() => ac.getSnapshot().status === 'success', { on: ac.subscribe, what: 'the answer' })
    expect(ac.getSnapshot()).toMatchObject({ query: '1600 Amphitheatre' })
    expect(first(ac.getSnapshot())).toBe(ADDRESS_TEXT)
    expect([requests.sent(), requests.aborted()]).toEqual([2, 0]) // the warm-up and "1600 Amph", refined
  })

  it('select: an address is geocoded and validated (2 requests), a city only geocoded (1)', async () => {
    const { client } = await setup()
    const ac = createAutocomplete(client, { debounceMs: 0 })
    ac.setQuery(ADDRESS)
    await waitUntil(() => ac.getSnapshot().status === 'success', { on: ac.subscribe, what: 'suggestions' })
    const address = ac.getSnapshot().suggestions[0]!
    let calls = 0
    client.on('request', () => void calls++)
    const chosen = await ac.select(address)
    expect(ac.getSnapshot()).toMatchObject({ status: 'idle', query: ADDRESS_TEXT, suggestions: [] })
    expect(chosen.place).toMatchObject({ countryCode: 'US', formattedAddress: ADDRESS_TEXT })
    expect(chosen.validation?.verdict).toMatchObject({ hasUnconfirmedComponents: false })
    expect(chosen.validation?.address.formattedAddress).toContain('1600 Amphitheatre Parkway')
    expect(calls).toBe(2)

    ac.setQuery('Mountain View')
    await waitUntil(() => ac.getSnapshot().status === 'success', { on: ac.subscribe, what: 'suggestions' })
    const city = ac.getSnapshot().suggestions.find((s) => s.kind === 'city')!
    calls = 0
    const town = await ac.select(city)
    expect(town).toMatchObject({
      place: { name: 'Mountain View', countryCode: 'US', placeId: city.id },
      validation: null,
    })
    expect(calls).toBe(1)
  })

  it('select: a name shared by several places resolves the chosen one (Portland, Maine; each Springfield)', async () => {
    const { client } = await setup()
    const ac = createAutocomplete(client)
    const cities = async (input: string) =>
      (await autocompletePlaces(client, { input, limit: 10 })).suggestions.filter((s) => s.kind === 'city')
    const maine = (await cities('portland')).find((s) => s.secondaryText.includes('Maine') || s.id === 'city_4975802')
    const springfields = await cities('springfield')
    expect(maine?.id).toBe('city_4975802')
    expect(springfields.length).toBeGreaterThan(1)
    for (const s of [maine!, ...springfields]) {
      const { place } = await ac.select(s)
      expect(place.placeId, s.text).toBe(s.id)
    }
    const street = (await autocompletePlaces(client, { input: 'high st', limit: 10 })).suggestions
    for (const s of street.filter((x) => x.kind !== 'city')) {
      const { place } = await ac.select(s)
      expect(Math.hypot(place.location.lat - s.location.lat, place.location.lng - s.location.lng), s.text).toBeLessThan(
        0.2,
      )
    }
  })

  it('bad options are ValidationErrors naming the field; a destroyed store ignores setQuery', async () => {
    const { client } = await setup()
    for (const [options, field] of [
      [{ debounceMs: -1 }, 'debounceMs'],
      [{ limit: 11 }, 'limit'],
      [{ minChars: 0 }, 'minChars'],
      [{ cacheSize: 1.5 }, 'cacheSize'],
      [{ near: { lat: 91, lng: 0 } }, 'near.lat'],
      [{ quota: { pauseMs: -5 } }, 'quota.pauseMs'],
    ] as const) {
      const error = (() => {
        try {
          createAutocomplete(client, options)
        } catch (e) {
          return e
        }
      })()
      expect(isValidationError(error), field).toBe(true)
      expect(error).toMatchObject({ field })
    }
    const ac = createAutocomplete(client)
    ac.destroy()
    ac.setQuery('Porto')
    expect(ac.getSnapshot()).toMatchObject({ status: 'idle', query: '' })
    await expect(ac.select(null as never)).rejects.toMatchObject({ name: 'ValidationError', field: 'suggestion' })
  })
})
