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
  /**
   * The check's one summary, counted from the same rows as the list: the changes the service made
   * (to see, or to take with "Use this") and the parts the person must fix.
   */
  summary: (changes: number, toFix: number) =>
    [
      toFix > 0 && (toFix === 1 ? '1 part to fix' : `${toFix} parts to fix`),
      changes > 0 && (changes === 1 ? '1 change to review' : `${changes} changes to review`),
    ]
      .filter(Boolean)
      .join(', ') || 'Confirmed as typed',
  /** Each row's verdict (the pill), by what it means to the person (address-summary.ts). */
  outcome: {
    confirmed: 'confirmed',
    reformatted: 'reformatted',
    corrected: 'corrected',
    unconfirmed: 'not confirmed',
    missing: 'missing',
  },
  /** Under a changed value: what was typed. */
  changedFrom: (outcome: 'reformatted' | 'corrected', typed: string) =>
    typed ? `${outcome === 'reformatted' ? 'reformatted' : 'corrected'} from “${typed}”` : 'added',
  components: {
    address_line: 'Address line',
    locality: 'Locality',
    postal_code: 'Postal code',
    country: 'Country',
  } as Record<string, string>,
  columns: { component: 'Component', value: 'Value', verdict: 'Verdict' },
  /** Where the check puts the address: the street's point, else the locality's. */
  geocodedAt: (placeId: string, { lat, lng }: { lat: number; lng: number }) =>
    `${placeId.startsWith('street_') ? 'Street' : 'Locality'} at ${lat.toFixed(3)}, ${lng.toFixed(3)} (${placeId})`,
  useThis: 'Use this',
  keepTyped: 'Keep what I typed',
  used: 'The checked address is in the fields.',
  kept: 'Kept what you typed.',
}
