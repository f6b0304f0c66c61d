// Addresses as people write them (issue 44, row 2), over every street the emulator knows: with a
// house number the street has, "number street", "street number", "street number, locality",
// "number street locality" and the suggestion's own label typed back each find that address first,
// over HTTP, whatever order the street's country writes it in.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { seedFrom } from '../../../../test/utils/seed.js'
import { STREETS, type Street } from '../maps/streets.js'
import { useAutocomplete } from './maps-autocomplete-helpers.js'

const { suggest } = useAutocomplete()
/** `SEED=… npx vitest run --project emulator maps-autocomplete-addresses` replays a run. */
const SEED = seedFrom(44)
/** Per street: 44 streets × 2 numbers × 6 inputs is about 500 requests (a few seconds). */
const NUM_RUNS = 2

/** A house number the street has, as people type it: "12", "12B", "12-14". */
const numberOn = (street: Street) =>
  fc
    .tuple(fc.integer({ min: 1, max: street.maxNumber }), fc.constantFrom('plain', 'letter', 'range'))
    .map(([n, form]) => (form === 'letter' ? `${n}B` : form === 'range' ? `${n}-${n + 2}` : `${n}`))

/** The street's name as typed: as written, in lower case, or without its accents. */
const spelling = fc.constantFrom(
  (name: string) => name,
  (name: string) => name.toLowerCase(),
  (name: string) => name.normalize('NFD').replace(/\p{M}/gu, ''),
)

describe('an address typed either way finds its street first (issue 44)', () => {
  it.each(STREETS.map((street) => [street.id, street] as const))('%s', async (id, street) => {
    const expected = { id: `street:${id}`, kind: 'address' }
    const firstFor = async (input: string, houseNumber: string) => {
      const { suggestions } = await suggest(input)
      expect(suggestions[0], `${JSON.stringify(input)} → ${suggestions.map((s) => s.text).join(' | ')}`).toMatchObject({
        ...expected,
        houseNumber,
      })
      return suggestions[0]!
    }
    await fc.assert(
      fc.asyncProperty(numberOn(street), spelling, async (number, spell) => {
        const name = spell(street.name)
        const houseNumber = number.toUpperCase()
        const after = await firstFor(`${name} ${number}`, houseNumber)
        // The label, in the street's country's order, typed back (alone, and whole); each input once.
        const inputs = new Set([
          `${number} ${name}`,
          `${name} ${number}, ${street.locality}`,
          `${number} ${name} ${street.locality}`,
          after.mainText,
          after.text,
        ])
        inputs.delete(`${name} ${number}`)
        for (const input of inputs) await firstFor(input, houseNumber)
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    )
  })
})
