// Local refinement equals the service: for an input A whose answer is complete and an input B that
// extends it, A's suggestions filtered by the contract's rule are B's answer (what lets a client
// skip the request). Inputs are addresses and cities typed a character at a time, with noise.
import { extendsInput, parseAutocompleteInput, suggestionMatches, type PlaceAutocomplete } from '@tandem/contract'
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

const refine = (a: PlaceAutocomplete, b: string) =>
  a.suggestions.filter((s) => suggestionMatches(parseAutocompleteInput(b).words, s))

describe('local refinement of a complete answer', () => {
  it('equals the service for every pair of prefixes of a typed address', async () => {
    let compared = 0
    for (const text of TYPED) {
      const prefixes = [...text].map((_, i) => text.slice(0, i + 1)).filter((p) => p.trim() !== '')
      const got = await Promise.all(prefixes.map((p) => ask(p, false)))
      for (let i = 0; i < prefixes.length; i++) {
        if (!got[i]!.complete) continue
        for (let j = i + 1; j < prefixes.length; j++) {
          if (!extendsInput(prefixes[i]!, prefixes[j]!)) continue
          // Complete stays complete: B matches a subset of A's matches.
          expect(got[j]!.complete, prefixes[j]).toBe(true)
          // The order is the service's too: it never depends on the words.
          expect(refine(got[i]!, prefixes[j]!), `${prefixes[i]} → ${prefixes[j]}`).toEqual(got[j]!.suggestions)
          compared++
        }
      }
    }
    expect(compared).toBeGreaterThan(200)
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
        expect(refine(first, b).map((s) => s.id)).toEqual(second.suggestions.map((s) => s.id))
        compared++
      }),
      { numRuns: 150 },
    )
    expect(compared).toBeGreaterThan(20)
  })
})
