// GET /v1/places:autocomplete?input=&near=lat,lng&limit= — streets (streets.ts) and major cities
// whose words the input's words start, in order: the contract's rule (@tandem/contract's
// autocomplete.ts), which a client also refines complete answers by. The order never depends on
// the words, so a client's local filter keeps the service's order too: nearest first with `near`;
// else the streets that have the typed house number, then by population (a street by its city's,
// right after its city).
import {
  AUTOCOMPLETE_LIMIT,
  parseAutocompleteInput,
  suggestionWords,
  wordsMatch,
  type LatLng,
  type PlaceSuggestion,
} from '@tandem/contract'
import type { RouteHandler } from '../resource-routes.js'
import { latLngParam } from '../validate.js'
import { cityInCountry, majorCities } from './cities.js'
import { countryName } from './countries.js'
import { fold, meters } from './geo.js'
import { numberFits, streetLine, STREETS, type Street } from './streets.js'

interface Candidate {
  id: string
  /** Without a house number. */
  mainText: string
  secondaryText: string
  location: LatLng
  /** The contract's `suggestionWords`, once per candidate (it is the same with a house number). */
  words: string[]
  street?: Street
}

let candidates: Candidate[] | undefined

/** Every candidate in the order without `near` or a house number: biggest city first, its streets after it. */
function all(): Candidate[] {
  if (candidates) return candidates
  const ranked: { candidate: Candidate; population: number; kind: number }[] = []
  const add = (candidate: Omit<Candidate, 'words'>, population: number, kind: number) =>
    ranked.push({ candidate: { ...candidate, words: suggestionWords(candidate) }, population, kind })
  for (const city of majorCities())
    add(
      { id: city.placeId, mainText: city.name, secondaryText: countryName(city.country), location: city.location },
      city.population,
      0,
    )
  for (const street of STREETS)
    add(
      {
        id: `street:${street.id}`,
        mainText: street.name,
        secondaryText: `${street.locality}, ${countryName(street.country)}`,
        location: street.location,
        street,
      },
      cityInCountry(street.country, fold(street.locality))?.population ?? 0,
      1,
    )
  // majorCities() is already biggest first with a deterministic tie-break; sort is stable.
  ranked.sort((a, b) => b.population - a.population || a.kind - b.kind)
  candidates = ranked.map((r) => r.candidate)
  return candidates
}

export const autocompletePlaces: RouteHandler = {
  write: false,
  run: ({ query }) => {
    // Presence, lengths, the pattern of `near` and the range of `limit` are the contract's.
    const input = query.get('input') ?? ''
    const limit = Number(query.get('limit') ?? AUTOCOMPLETE_LIMIT.default)
    const nearRaw = query.get('near')
    const near = nearRaw ? latLngParam(nearRaw, 'near') : undefined
    const { houseNumber, words } = parseAutocompleteInput(input)
    // No words ("1600", ",,"): everything matches, ranked as always, and the answer is not complete.

    let matches = all().filter((c) => wordsMatch(words, c.words))
    const number = houseNumber?.toUpperCase()
    const hasNumber = (c: Candidate) => number !== undefined && c.street !== undefined && numberFits(c.street, number)
    if (near) {
      const distance = new Map(matches.map((c) => [c, meters(near, c.location)]))
      matches = matches.sort((a, b) => distance.get(a)! - distance.get(b)!)
      return answer(matches, limit, number, hasNumber, distance)
    }
    if (number !== undefined) matches = [...matches.filter(hasNumber), ...matches.filter((c) => !hasNumber(c))]
    return answer(matches, limit, number, hasNumber)
  },
}

function answer(
  matches: Candidate[],
  limit: number,
  number: string | undefined,
  hasNumber: (c: Candidate) => boolean,
  distance?: Map<Candidate, number>,
) {
  const suggestions = matches.slice(0, limit).map((c): PlaceSuggestion => {
    const address = hasNumber(c)
    const mainText = address ? streetLine(c.street!, c.street!.name, number) : c.mainText
    const d = distance?.get(c)
    return {
      id: c.id,
      kind: address ? 'address' : c.street ? 'street' : 'city',
      text: `${mainText}, ${c.secondaryText}`,
      mainText,
      secondaryText: c.secondaryText,
      ...(address ? { houseNumber: number } : {}),
      location: c.location,
      ...(d === undefined ? {} : { distanceMeters: Math.round(d) }),
    }
  })
  return { status: 200, body: { suggestions, complete: matches.length <= limit } }
}
