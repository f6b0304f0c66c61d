// The place autocomplete's match rule (GET /maps/v1/places:autocomplete), once: the service (and
// the emulator) pick suggestions with it, and a client filters a complete answer with it when the
// input grows, so what it shows locally is what the service would have answered.

/** Case- and diacritic-insensitive words, one space apart: "São Paulo" and "sao paulo" meet, "ß" is "ss". */
export const foldText = (text: string): string =>
  // One path for all text (an ASCII fast path saved ~10 ms per 135 000 names, not worth its bytes).
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/** The folded words of a text (none for an empty one). */
const foldWords = (text: string): string[] => foldText(text).split(' ').filter(Boolean)

/** An autocomplete input, taken apart. */
export interface AutocompleteInput {
  /** A leading house number ("1600", "12a"), folded. */
  houseNumber?: string
  /** The rest, folded, split on anything not a letter or a digit. */
  words: string[]
}

const HOUSE_NUMBER = /^(\d{1,6}[a-z]?)\b/

export function parseAutocompleteInput(input: string): AutocompleteInput {
  const folded = foldText(input)
  const number = HOUSE_NUMBER.exec(folded)?.[1]
  const rest = number ? folded.slice(number.length) : folded
  const words = rest.split(' ').filter(Boolean)
  return number ? { houseNumber: number, words } : { words }
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

/** The rule on a suggestion as the service sends it. */
export const suggestionMatches = (words: readonly string[], suggestion: SuggestionText): boolean =>
  wordsMatch(words, suggestionWords(suggestion))

/**
 * Whether `next` extends `previous`: the same house number, and its words' text starts with
 * `previous`'s. Then `next` matches a subset of what `previous` matched, so a complete answer to
 * `previous` filtered with `suggestionMatches` is the answer to `next`.
 */
export function extendsInput(previous: string, next: string): boolean {
  const a = parseAutocompleteInput(previous)
  const b = parseAutocompleteInput(next)
  return a.houseNumber === b.houseNumber && b.words.join(' ').startsWith(a.words.join(' '))
}
