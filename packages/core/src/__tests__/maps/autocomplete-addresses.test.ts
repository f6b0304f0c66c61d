// Addresses typed with the house number after the street, as most of Europe writes them (issue 44,
// row 2): the store offers the address, and what it shows from its cache, refined or narrowed
// locally, is at every keystroke what the service answers for that input (never a suggestion the
// service would not show, never one labelled with a number the input no longer has).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { autocompletePlaces, createAutocomplete, type PlaceSuggestion } from '../../entries/maps.js'
import { setup } from '../helpers.js'
import { countRequests, type } from './autocomplete-helpers.js'

afterEach(() => void vi.useRealTimers())

const TYPED = 'Rua Augusta 100, Lisbon'
const TEXT = 'Rua Augusta 100, Lisbon, Portugal'

/** Types `text` at `msPerChar` and keeps what the store showed for each input, answered or meanwhile. */
async function typeAndWatch(text: string, msPerChar: number) {
  const { client } = await setup()
  const requests = countRequests(client)
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  const ac = createAutocomplete(client)
  const answered = new Map<string, PlaceSuggestion[]>()
  const meanwhile: { query: string; suggestions: PlaceSuggestion[] }[] = []
  ac.subscribe(() => {
    const { status, query, suggestions } = ac.getSnapshot()
    if (status === 'success') answered.set(query, suggestions)
    else if (status === 'debouncing' && suggestions.length > 0) meanwhile.push({ query, suggestions })
  })
  await type(ac, text, msPerChar)
  const sent = requests.sent()
  vi.useRealTimers()
  /** The service's own answer, asked directly (after the typing, so it is not counted above). */
  const service = async (input: string) => (await autocompletePlaces(client, { input })).suggestions
  return { ac, sent, answered, meanwhile, service }
}

describe('an address typed with its number after the street', () => {
  it('at 80 ms a character: one request, and the address is offered', async () => {
    const { ac, sent } = await typeAndWatch(TYPED, 80)
    expect(ac.getSnapshot().suggestions[0]).toMatchObject({ kind: 'address', houseNumber: '100', text: TEXT })
    expect(sent).toBe(1)
  })

  it('at 400 ms a character: every answer shown is the service’s for that input, and nothing shown meanwhile is not in it', async () => {
    const { ac, sent, answered, meanwhile, service } = await typeAndWatch(TYPED, 400)
    expect(ac.getSnapshot().suggestions[0]).toMatchObject({ text: TEXT })
    // "Rua Augusta 1", "…10", "…100": each a number of its own, labelled by the service, never refined from the last.
    expect(answered.get('Rua Augusta 1')?.[0]).toMatchObject({ mainText: 'Rua Augusta 1', houseNumber: '1' })
    expect(answered.get('Rua Augusta 10')?.[0]).toMatchObject({ mainText: 'Rua Augusta 10', houseNumber: '10' })
    expect(answered.size).toBeGreaterThan(15)
    for (const [query, suggestions] of answered) expect(suggestions, query).toEqual(await service(query))
    for (const { query, suggestions } of meanwhile)
      for (const s of suggestions) expect(await service(query), query).toContainEqual(s)
    // Fewer than one a keystroke: ", Lisbon" and most letters are refined from complete answers.
    expect(sent).toBeLessThan(TYPED.length / 2)
  })
})
