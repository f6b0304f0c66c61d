// Addresses as people write them (issue 44, row 2): the rule reads a house number before the
// street or after it (then maybe a locality), in the forms people type, and a client's refinement
// never reuses a suggestion whose house number the new input reads otherwise.
import { describe, expect, it } from 'vitest'
import {
  extendsInput,
  parseAutocompleteInput,
  refineSuggestions,
  suggestionMatches,
  suggestionWords,
} from '../index.js'
import { readingOf } from '../autocomplete.js'

const AUGUSTA = { mainText: 'Rua Augusta 100', secondaryText: 'Lisbon, Portugal', houseNumber: '100' }
const AUGUSTA_STREET = { mainText: 'Rua Augusta', secondaryText: 'Lisbon, Portugal' }
const BAKER = { mainText: '221B Baker Street', secondaryText: 'London, United Kingdom', houseNumber: '221B' }
const RANGE = { mainText: 'Rua Augusta 12-14', secondaryText: 'Lisbon, Portugal', houseNumber: '12-14' }

/** The house number the input is read with for that suggestion (`null`: it does not match). */
const numberFor = (input: string, s: Parameters<typeof suggestionWords>[0]) => {
  const reading = readingOf(parseAutocompleteInput(input), suggestionWords(s))
  return reading ? (reading.houseNumber ?? '') : null
}

describe('house numbers before or after the street', () => {
  it.each([
    ['Rua Augusta 100', AUGUSTA, '100'],
    ['100 Rua Augusta', AUGUSTA, '100'],
    ['Rua Augusta 100, Lisbon', AUGUSTA, '100'],
    ['rua augusta 100 lisbon portugal', AUGUSTA, '100'],
    ['100 Rua Augusta Lisbon', AUGUSTA, '100'],
    ['100, Rua Augusta, Lisbon', AUGUSTA, '100'],
    ['Baker Street 221B', BAKER, '221b'],
    ['221b baker street, london', BAKER, '221b'],
    ['Rua Augusta 12-14', RANGE, '12-14'],
    ['Rua Augusta 12 – 14, Lisbon', RANGE, '12-14'],
    ['12-14 Rua Augusta', RANGE, '12-14'],
    ['No. 5 Rua Augusta', AUGUSTA, '5'],
    ['Rua Augusta, n.º 5', AUGUSTA, '5'],
    ['Rua Augusta nº5', AUGUSTA, '5'],
    ['Rua Augusta Nr. 5', AUGUSTA, '5'],
    ['#5 Rua Augusta', AUGUSTA, '5'],
    ['Rua Augusta', AUGUSTA, ''], // no number: the street
    ['Rua Aug', AUGUSTA, ''],
  ])('%j reads %j with %j', (input, s, number) => expect(numberFor(input, s)).toBe(number))

  it('a number inside a name stays the name; the one after it is the house number', () => {
    const julio = { mainText: 'Avenida 9 de Julio', secondaryText: 'Buenos Aires, Argentina' }
    expect(numberFor('Avenida 9 de Julio', julio)).toBe('')
    expect(numberFor('Avenida 9', julio)).toBe('')
    expect(numberFor('Avenida 9 de Julio 1200', julio)).toBe('1200')
    expect(numberFor('Avenida 9 de Julio 9, Buenos Aires', julio)).toBe('9')
    expect(numberFor('12 Avenida 9 de Julio', julio)).toBe('12')
    // Any later number may be it, when the words match without it (lenient, never ambiguous with a name).
    expect(numberFor('Rua 100 Augusta', AUGUSTA)).toBe('100')
  })

  it('what it does not read: a letter apart, a postal code, another spelling of the locality, 7 digits', () => {
    expect(numberFor('Baker Street 221 B', BAKER)).toBeNull() // "B" is a word then, which no word of it starts
    expect(numberFor('Rua Augusta 100, 1100-053 Lisbon', AUGUSTA)).toBeNull()
    expect(numberFor('Rua Augusta 100, Lisboa', AUGUSTA)).toBeNull() // the locality as the suggestion names it
    expect(numberFor('Rua Augusta 1234567', AUGUSTA)).toBeNull() // 7 digits are no house number
    expect(parseAutocompleteInput('Casino 5').readings.at(-1)).toEqual({ houseNumber: '5', words: ['casino'] }) // "no" inside a word is no marker
  })

  it("a suggestion's own label, typed back, finds it", () => {
    for (const s of [AUGUSTA, BAKER, RANGE]) {
      expect(suggestionMatches(parseAutocompleteInput(s.mainText), s)).toBe(true)
      expect(suggestionMatches(parseAutocompleteInput(`${s.mainText}, ${s.secondaryText}`), s)).toBe(true)
      expect(numberFor(s.mainText, s)).toBe(s.houseNumber.toLowerCase())
    }
  })
})

describe('extending an input that ends with a number', () => {
  it.each([
    ['Rua Augusta 1', 'Rua Augusta 10', false], // another house number
    ['Rua Augusta 1', 'Rua Augusta 1, Lis', true],
    ['Baker Street 221', 'Baker Street 221B', false],
    ['Rua Augusta 12', 'Rua Augusta 12-14', false],
    ['Rua Aug', 'Rua Augusta 1', true],
    ['Rua Augusta 1, Lis', 'Rua Augusta 1, Lisbon', true],
  ])('%j → %j: %s', (previous, next, expected) => expect(extendsInput(previous, next)).toBe(expected))
})

describe('refineSuggestions', () => {
  const complete = <S>(suggestions: S[]) => ({ suggestions, complete: true })

  it('keeps what still matches when every house number reads the same', () => {
    expect(refineSuggestions('Rua Augusta 1', 'Rua Augusta 1, Lisbon', complete([AUGUSTA]))).toEqual([AUGUSTA])
    expect(refineSuggestions('Rua Augusta 1', 'Rua Augusta 1, Porto', complete([AUGUSTA]))).toEqual([])
    expect(refineSuggestions('Rua Aug', 'Rua Augusta, Lis', complete([AUGUSTA_STREET]))).toEqual([AUGUSTA_STREET])
  })

  it('cannot tell when the new input reads a house number anew: the service labels it', () => {
    // "Rua Augusta" was the street; "Rua Augusta 1" is an address labelled with its number.
    expect(refineSuggestions('Rua Augusta', 'Rua Augusta 1', complete([AUGUSTA_STREET]))).toBeUndefined()
    expect(refineSuggestions('Rua Augusta 1', 'Rua Augusta 10', complete([AUGUSTA]))).toBeUndefined()
  })

  it('an unfinished answer is narrowed only while no number is typed', () => {
    const unfinished = { suggestions: [AUGUSTA_STREET], complete: false }
    expect(refineSuggestions('Rua', 'Rua Aug', unfinished)).toEqual([AUGUSTA_STREET])
    expect(refineSuggestions('Rua Aug', 'Rua Aug 1', unfinished)).toBeUndefined()
    expect(refineSuggestions('Rua Aug', 'Rua Porto', unfinished)).toBeUndefined() // not an extension
  })
})
