// The autocomplete's match rule: the emulator answers by it and a client refines locally by it, so
// its monotonicity (an extended input matches a subset) is what makes local refinement correct.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  extendsInput,
  foldText,
  parseAutocompleteInput,
  suggestionMatches,
  suggestionWords,
  wordsMatch,
} from '../index.js'

const AMPHITHEATRE = {
  mainText: '1600 Amphitheatre Parkway',
  secondaryText: 'Mountain View, United States',
  houseNumber: '1600',
}
const AUGUSTA = { mainText: 'Rua Augusta 100', secondaryText: 'Lisbon, Portugal', houseNumber: '100' }
const JULIO = { mainText: 'Avenida 9 de Julio 9', secondaryText: 'Buenos Aires, Argentina', houseNumber: '9' }
const SAO_PAULO = { mainText: 'São Paulo', secondaryText: 'Brazil' }

describe('foldText', () => {
  it.each([
    ['Mountain View', 'mountain view'],
    ['  São   Paulo ', 'sao paulo'],
    ['Friedrichstraße', 'friedrichstrasse'],
    ['FRIEDRICHSTRASSE', 'friedrichstrasse'],
    ['Champs-Élysées', 'champs elysees'],
    ['Queen’s Road', 'queen s road'],
    ['1600 Amphitheatre Pkwy, Mountain View', '1600 amphitheatre pkwy mountain view'],
    ['Chūō-dōri', 'chuo dori'],
    ['Łódź', 'łodz'], // Ł has no combining mark to strip: it stays a letter of its own
    ['東京', '東京'],
    [',,;', ''],
  ])('%j → %j', (input, folded) => expect(foldText(input)).toBe(folded))
})

describe('parseAutocompleteInput', () => {
  /** Each reading as "number | words" ("words" alone without a number), most literal first. */
  const readings = (input: string) =>
    parseAutocompleteInput(input).readings.map((r) =>
      r.houseNumber === undefined ? r.words.join(' ') : `${r.houseNumber} | ${r.words.join(' ')}`,
    )
  it.each([
    ['1600 amph', ['1600 amph', '1600 | amph']],
    [
      '1600 Amphitheatre Parkway, Mountain View',
      ['1600 amphitheatre parkway mountain view', '1600 | amphitheatre parkway mountain view'],
    ],
    ['12A Market St', ['12a market st', '12a | market st']],
    ['1600', ['1600', '1600 | ']],
    ['1600,', ['1600', '1600 | ']],
    ['1600amph', ['1600amph']],
    ['1234567 main', ['1234567 main']],
    ['Rua Augusta 100', ['rua augusta 100', '100 | rua augusta']],
    ['  São Paulo ', ['sao paulo']],
    ['', ['']],
  ])('%j', (input, expected) => expect(readings(input)).toEqual(expected))

  it('keeps the words as typed, a house number whole', () => {
    expect(parseAutocompleteInput('Rua Augusta 12-14, Lisbon').words).toEqual(['rua', 'augusta', '12-14', 'lisbon'])
  })
})

describe('suggestionMatches', () => {
  it.each([
    ['1600 amph', AMPHITHEATRE, true],
    ['1600 Amphitheatre Parkway, Mountain View', AMPHITHEATRE, true],
    ['amph mou', AMPHITHEATRE, true],
    ['mou amph', AMPHITHEATRE, false], // in order
    ['amph amph', AMPHITHEATRE, false], // one word of the suggestion per input word
    ['park', AMPHITHEATRE, true],
    ['arkway', AMPHITHEATRE, false], // starts of words only
    ['1600 amphitheater', AMPHITHEATRE, false],
    ['united st', AMPHITHEATRE, true],
    ['rua augusta lis', AUGUSTA, true],
    ['avenida 9 de', JULIO, true], // the house number is the trailing 9, not the street's
    ['rua augusta 100', AUGUSTA, true], // the number after the street
    ['rua augusta 100 lisbon', AUGUSTA, true],
    ['100 rua augusta', AUGUSTA, true],
    ['rua augusta 100 porto', AUGUSTA, false],
    ['sao pau', SAO_PAULO, true],
    ['são paulo brazil', SAO_PAULO, true],
    ['paulo sao', SAO_PAULO, false],
    ['', SAO_PAULO, true],
  ])('%j on %j → %s', (input, suggestion, expected) =>
    expect(suggestionMatches(parseAutocompleteInput(input), suggestion)).toBe(expected),
  )

  it('matches on the text without its house number, wherever the country writes it', () => {
    expect(suggestionWords(AMPHITHEATRE)).toEqual(['amphitheatre', 'parkway', 'mountain', 'view', 'united', 'states'])
    expect(suggestionWords(AUGUSTA)).toEqual(['rua', 'augusta', 'lisbon', 'portugal'])
    expect(suggestionWords(JULIO)).toEqual(['avenida', '9', 'de', 'julio', 'buenos', 'aires', 'argentina'])
    // The same words with or without the number: a candidate's words can be computed once.
    const { houseNumber: _, ...street } = AMPHITHEATRE
    expect(suggestionWords({ ...street, mainText: 'Amphitheatre Parkway' })).toEqual(suggestionWords(AMPHITHEATRE))
    expect(suggestionWords({ mainText: '1600', secondaryText: '', houseNumber: '1600' })).toEqual(['1600'])
  })
})

describe('extendsInput', () => {
  it.each([
    ['1600 amph', '1600 amphitheatre', true],
    ['1600 amph', '1600 Amph, Mountain', true],
    ['mou', 'mountain view', true],
    ['mou', 'Mou', true],
    ['mountain view', 'mountain, view', true],
    ['1600', '1600 a', true],
    ['1600 amph', '160 amph', false],
    ['160', '1600', false], // another house number
    ['rua augusta 1', 'rua augusta 10', false], // another house number, after the street too
    ['rua augusta 1', 'rua augusta 1, lis', true],
    ['rua aug', 'rua augusta 100', true], // a number typed after: a subset still (refineSuggestions tells the rest)
    ['1600 amph', 'amph', false],
    ['amph', '1600 amph', false],
    ['mountain', 'moun', false], // backspacing
    ['mountain view', 'mountainview', false],
  ])('%j → %j: %s', (previous, next, expected) => expect(extendsInput(previous, next)).toBe(expected))
})

describe('monotonicity', () => {
  // Small alphabets, so inputs and suggestions share words often enough to match; numbers too.
  const word = fc.oneof(fc.stringMatching(/^[abé]{1,4}$/), fc.stringMatching(/^[12]{1,2}a?$/))
  const text = fc.array(word, { maxLength: 5 }).map((w) => w.join(' '))
  const suggestion = fc.record({ mainText: text, secondaryText: text })

  it('words that match, cut to any number of words or the last word shortened, still match', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 4 }), suggestion, (input, s) => {
        const words = parseAutocompleteInput(input.join(' ')).words
        const target = suggestionWords(s)
        fc.pre(wordsMatch(words, target))
        for (let n = 0; n <= words.length; n++) {
          expect(wordsMatch(words.slice(0, n), target)).toBe(true)
          const last = words[n - 1]
          if (last)
            for (let k = 1; k < last.length; k++)
              expect(wordsMatch([...words.slice(0, n - 1), last.slice(0, k)], target)).toBe(true)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('what an extending input matches, the input it extends matches too', () => {
    const more = fc.oneof(
      fc.string({ maxLength: 6 }),
      word.map((w) => ` ${w}`),
    )
    fc.assert(
      fc.property(text, more, suggestion, (previous, tail, s) => {
        const next = previous + tail
        fc.pre(extendsInput(previous, next))
        if (suggestionMatches(parseAutocompleteInput(next), s))
          expect(suggestionMatches(parseAutocompleteInput(previous), s)).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })

  it('suggestionMatches is a reading of the input on precomputed words', () => {
    fc.assert(
      fc.property(text, suggestion, (input, s) => {
        const parsed = parseAutocompleteInput(input)
        expect(parsed.readings.some((r) => wordsMatch(r.words, suggestionWords(s)))).toBe(suggestionMatches(parsed, s))
      }),
    )
  })
})
