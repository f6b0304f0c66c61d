// The place autocomplete's match rule (GET /maps/v1/places:autocomplete), once: the service (and
// the emulator) pick suggestions with it, and a client refines a complete answer with it when the
// input grows, so what it shows locally is what the service would have answered.

/** Decomposed, marks stripped, lower case, "ß" as "ss": what every comparison starts from. */
const plain = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss')

/** Case- and diacritic-insensitive words, one space apart: "São Paulo" and "sao paulo" meet, "ß" is "ss". */
export const foldText = (text: string): string =>
  // One path for all text (an ASCII fast path saved ~10 ms per 135 000 names, not worth its bytes).
  plain(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/** The folded words of a text (none for an empty one). */
const foldWords = (text: string): string[] => foldText(text).split(' ').filter(Boolean)

/**
 * A house number as the rule reads it (folded): 1 to 6 digits, then a letter ("221b") or a range
 * ("12-14", "12a-14"). "221 B" (the letter apart) is a number and a word; "12/14" two numbers.
 */
const HOUSE_NUMBER = /^\d{1,6}[a-z]?(?:-\d{1,6})?$/

/** "No. 5", "Nº 5", "n.º 5", "Nr. 5" ("#5" folds to "5" anyway): the marker goes, the number stays. */
const MARKER = /(^|[^\p{L}\p{N}])(?:n[o°º]|nr|n\.\s*[o°º]?)\.?\s*(?=\d)/gu
/** A range kept whole ("12-14", "12 – 14"), else a run of letters and digits. */
const TOKEN = /\d{1,6}[a-z]?\s*[-‐–]\s*\d{1,6}(?![\p{L}\p{N}])|[\p{L}\p{N}]+/gu

/** Later numbers tried as the house number, the last first: enough for a street's own and a postal code's. */
const LATER_NUMBERS = 3

/** One way to read an input: the house number it names (if any), and the words a place must have. */
export interface InputReading {
  /** Folded: "100", "221b", "12-14". */
  houseNumber?: string
  words: string[]
}

/** An autocomplete input, taken apart. */
export interface AutocompleteInput {
  /** Its folded words in order, a house number kept whole ("221b", "12-14"), a "No." or "nº" before one gone. */
  words: string[]
  /**
   * The ways to read it; a place is matched by the first that fits it. All words as the name (a
   * name may hold a number: "Avenida 9 de Julio"), then the first word as the house number
   * ("100 Rua Augusta"), then each later number, the last first ("Rua Augusta 100, Lisbon").
   */
  readings: InputReading[]
}

export function parseAutocompleteInput(input: string): AutocompleteInput {
  const words = (plain(input).replace(MARKER, '$1 ').match(TOKEN) ?? []).map((w) =>
    w.replace(/\s+/g, '').replace(/[‐–]/g, '-'),
  )
  // A range that is not the house number is its two numbers.
  const without = (skip: number) => words.flatMap((w, i) => (i === skip ? [] : w.split('-')))
  const readings: InputReading[] = [{ words: without(-1) }]
  const read = (i: number) => readings.push({ houseNumber: words[i]!, words: without(i) })
  if (HOUSE_NUMBER.test(words[0] ?? '')) read(0)
  for (let i = words.length - 1, later = 0; i > 0 && later < LATER_NUMBERS; i--) {
    if (!HOUSE_NUMBER.test(words[i]!)) continue
    read(i)
    later++
  }
  return { words, readings }
}

/** What the rule reads of a suggestion. */
export interface SuggestionText {
  mainText: string
  secondaryText: string
  houseNumber?: string
}

/**
 * The words a suggestion is matched on: its folded text without its house number (the number is
 * the input's, not something to match). The number sits first ("1600 Amphitheatre Parkway") or
 * last ("Rua Augusta 100") of the main text, so it is taken from there, not from inside a name
 * ("Avenida 9 de Julio 9"). Precompute it per candidate: it is the same with or without a number.
 */
export function suggestionWords({ mainText, secondaryText, houseNumber }: SuggestionText): string[] {
  const main = foldWords(mainText)
  const number = foldWords(houseNumber ?? '')
  const at = (i: number) => number.every((w, j) => main[i + j] === w)
  if (number.length > 0 && main.length > number.length) {
    const end = main.length - number.length
    const cut = at(0) ? 0 : at(end) ? end : -1
    if (cut >= 0) main.splice(cut, number.length)
  }
  return [...main, ...foldWords(secondaryText)]
}

/**
 * Whether every input word starts a word of `target`, in order (word i at a position after word
 * i-1's). Monotone: an input that extends a matching one (words longer or more) matches a subset.
 */
export function wordsMatch(words: readonly string[], target: readonly string[]): boolean {
  let from = 0
  for (const word of words) {
    while (from < target.length && !target[from]!.startsWith(word)) from++
    if (from === target.length) return false
    from++
  }
  return true
}

/** How the input reads for a place of those words (`suggestionWords`): the first reading that matches, if any. */
export const readingOf = (input: AutocompleteInput, target: readonly string[]): InputReading | undefined =>
  input.readings.find((r) => wordsMatch(r.words, target))

/** The rule on a suggestion as the service sends it. */
export const suggestionMatches = (input: AutocompleteInput, suggestion: SuggestionText): boolean =>
  readingOf(input, suggestionWords(suggestion)) !== undefined

/**
 * Whether `next` is `previous` typed further: the same words, the last one maybe longer, maybe
 * more after; a number typed stays as it was ("Rua Augusta 1" → "Rua Augusta 10" is another house
 * number). Then `next` matches a subset of the places `previous` matched, though it may read one
 * with a house number where `previous` did not: `refineSuggestions` checks that.
 */
export function extendsInput(previous: string, next: string): boolean {
  const a = parseAutocompleteInput(previous).words
  const b = parseAutocompleteInput(next).words
  if (b.length < a.length) return false
  const last = a.length - 1
  return a.every((w, i) => w === b[i] || (i === last && !HOUSE_NUMBER.test(w) && b[i]!.startsWith(w)))
}

/**
 * The answer to `next` from the answer to `previous` when it can be told without asking, else
 * `undefined`. It can when `next` extends `previous` and each suggestion that still matches reads
 * with the same house number (so the service would label and rank it the same). An answer that is
 * not `complete` lacks places that a number read anew could rank first, so it is refined only
 * while `next` holds no number.
 */
export function refineSuggestions<S extends SuggestionText>(
  previous: string,
  next: string,
  answer: { suggestions: readonly S[]; complete: boolean },
): S[] | undefined {
  if (!extendsInput(previous, next)) return undefined
  const before = parseAutocompleteInput(previous)
  const now = parseAutocompleteInput(next)
  if (!answer.complete && now.readings.length > 1) return undefined
  const kept: S[] = []
  for (const s of answer.suggestions) {
    const words = suggestionWords(s)
    const reading = readingOf(now, words)
    if (!reading) continue
    if (readingOf(before, words)?.houseNumber !== reading.houseNumber) return undefined
    kept.push(s)
  }
  return kept
}
