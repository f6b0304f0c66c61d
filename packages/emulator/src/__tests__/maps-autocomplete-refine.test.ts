// Local refinement equals the service: for an input A whose answer is complete and an input B that
// extends it, the contract's `refineSuggestions` of A's answer is B's answer, labels and order
// included, whenever it answers at all (what lets a client skip the request); an unfinished answer
// narrowed while typing shows nothing B's answer lacks. Inputs are addresses (the house number
// before or after the street) and cities typed a character at a time, with noise.
import { extendsInput, refineSuggestions, type PlaceAutocomplete } from '@tandem/contract'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { useAutocomplete } from './maps-autocomplete-helpers.js'

const { suggest } = useAutocomplete()

const TYPED = [
  '1600 Amphitheatre Parkway, Mountain View',
  '100 Castro Street, Mountain View',
  '1 Infinite Loop, Cupertino',
  '1355 Market Street, San Francisco',
  '1600 Pennsylvania Avenue, Washington',
  'Mountain View',
  'San José, Costa Rica',
  '100 Rua Augusta, Lisbon',
  'Rua Augusta 100, Lisbon',
  'Baker Street 221B, London',
  'Avenida 9 de Julio 1200',
  'Kurfürstendamm 12-14 Berlin',
  'Friedrichstraße Berlin',
  'new york',
]
const NEAR = '37.422,-122.0841'

/** Answers by input and `near`: a typed sequence asks the same prefixes again. */
const answers = new Map<string, Promise<PlaceAutocomplete>>()
const ask = (input: string, near: boolean) => {
  const key = JSON.stringify([input, near])
  let answer = answers.get(key)
  if (!answer) answers.set(key, (answer = suggest(input, { limit: '10', ...(near ? { near: NEAR } : {}) })))
  return answer
}

/** Per typed text: pairs refined equal to the service, and pairs the rule could not tell (the client asks). */
const tally = { compared: 0, untold: 0 }

describe('local refinement of a complete answer', () => {
  // One test per text: each types its prefixes (a few dozen requests) within its own time.
  it.each(TYPED)('equals the service for every pair of prefixes of %j', async (text) => {
    const prefixes = [...text].map((_, i) => text.slice(0, i + 1)).filter((p) => p.trim() !== '')
    const got = await Promise.all(prefixes.map((p) => ask(p, false)))
    for (let i = 0; i < prefixes.length; i++) {
      for (let j = i + 1; j < prefixes.length; j++) {
        if (!extendsInput(prefixes[i]!, prefixes[j]!)) continue
        const pair = `${prefixes[i]} → ${prefixes[j]}`
        if (!got[i]!.complete) {
          // Narrowed while typing: only what B's answer shows, as it shows it.
          for (const s of refineSuggestions(prefixes[i]!, prefixes[j]!, got[i]!) ?? [])
            expect(got[j]!.suggestions, pair).toContainEqual(s)
          continue
        }
        // Complete stays complete: B matches a subset of A's matches.
        expect(got[j]!.complete, prefixes[j]).toBe(true)
        const refined = refineSuggestions(prefixes[i]!, prefixes[j]!, got[i]!)
        if (!refined) {
          tally.untold++ // a house number read anew: the client asks
          continue
        }
        // The order and the labels are the service's too.
        expect(refined, pair).toEqual(got[j]!.suggestions)
        tally.compared++
      }
    }
  })

  it('compared enough pairs, and could not tell some ("Rua Augusta" → "Rua Augusta 1": only the service labels it)', () => {
    expect(tally.compared).toBeGreaterThan(200)
    expect(tally.untold).toBeGreaterThan(0)
  })

  it('holds for noisy typing (case, commas, spaces), with and without near', async () => {
    const noisy = fc
      .tuple(fc.constantFrom(...TYPED), fc.array(fc.constantFrom('upper', 'comma', 'spaces', 'none'), { maxLength: 3 }))
      .map(([text, noise]) =>
        noise.reduce(
          (t, n) =>
            n === 'upper'
              ? t.toUpperCase()
              : n === 'comma'
                ? t.replace(' ', ', ')
                : n === 'spaces'
                  ? t.replace(' ', '  ')
                  : t,
          text,
        ),
      )
    let compared = 0
    await fc.assert(
      fc.asyncProperty(noisy, fc.nat(), fc.nat(), fc.boolean(), async (text, x, y, near) => {
        const [i, j] = [x % text.length, y % text.length].sort((m, n) => m - n) as [number, number]
        const [a, b] = [text.slice(0, i + 1), text.slice(0, j + 1)]
        if (a.trim() === '' || !extendsInput(a, b)) return
        const first = await ask(a, near)
        if (!first.complete) return
        const second = await ask(b, near)
        expect(second.complete).toBe(true)
        const refined = refineSuggestions(a, b, first)
        if (!refined) return
        expect(refined).toEqual(second.suggestions)
        compared++
      }),
      { numRuns: 150 },
    )
    expect(compared).toBeGreaterThan(20)
  })
})
