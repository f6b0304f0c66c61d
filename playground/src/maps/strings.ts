/**
 * The maps panel's words for the address field and its check, in one place so they can be
 * replaced (another language, another tone) without reading the components.
 */
export const MAPS_STRINGS = {
  /** The polite live region's announcement of an answer (a screen reader hears the count, not the list). */
  count: (n: number) => (n === 0 ? 'No suggestions' : n === 1 ? '1 suggestion' : `${n} suggestions`),
  /** `degraded`: the quota made autocomplete ask less. Quiet: the field still works. */
  slower: 'Keep typing…',
  paused: 'Suggestions paused to save the map quota',
  suggestionsLabel: 'Address suggestions',
  /** The check after a choice or a Validate. */
  didYouMean: 'Did you mean this address?',
  isThisIt: 'Is this the address?',
  corrected: (typed: string) => (typed ? `corrected from “${typed}”` : 'added'),
  useThis: 'Use this',
  keepTyped: 'Keep what I typed',
  used: 'The checked address is in the fields.',
  kept: 'Kept what you typed.',
}
