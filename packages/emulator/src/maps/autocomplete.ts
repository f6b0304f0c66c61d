// GET /v1/places:autocomplete?input=&near=lat,lng&limit= — streets (streets.ts) and major cities
// whose words the input's words start, in order, with a house number before or after the street:
// the contract's rule (@tandem/contract's autocomplete.ts), which a client also refines complete
// answers by. The order depends on the words only through each place's house number, so a client's
// local filter keeps the service's order while those stay (`refineSuggestions`): nearest first with
// `near`; else the streets that have their house number, then by population (a street by its
// city's, right after its city).
import {
  AUTOCOMPLETE_LIMIT,
  parseAutocompleteInput,
  readingOf,
  suggestionWords,
  type LatLng,
  type PlaceSuggestion,
} from '@tandem/contract'
import type { RouteHandler } from '../resource-routes.js'
import { latLngParam } from '../validate.js'
import { cityInCountry, majorCities } from './cities.js'
import { countryName } from './countries.js'
import { fold, meters } from './geo.js'
import { createPrefixIndex, type PrefixIndex } from './prefix-index.js'
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

/** A candidate the input matches, with the house number it is offered at (a street that has it). */
interface Match {
  candidate: Candidate
  number?: string
}

let candidates: Candidate[] | undefined
let index: PrefixIndex | undefined

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
    const parsed = parseAutocompleteInput(input)
    // No words ("1600", ",,"): everything matches, ranked as always, and the answer is not complete.
    let matches: Match[] = []
    const everyone = all()
    index ??= createPrefixIndex(everyone.map((c) => c.words))
    // Only the places with a word that a reading's first word starts (in their order, ascending).
    const scan = index.candidates(parsed.readings.map((r) => r.words[0]))
    for (const candidate of scan ? scan.map((i) => everyone[i]!) : everyone) {
      const reading = readingOf(parsed, candidate.words)
      if (!reading) continue
      // The number as the street's country writes it ("221B"), when the street can have it.
      const number = reading.houseNumber?.toUpperCase()
      const fits = number !== undefined && candidate.street !== undefined && numberFits(candidate.street, number)
      matches.push(fits ? { candidate, number } : { candidate })
    }
    if (near) {
      const distance = new Map(matches.map((m) => [m, meters(near, m.candidate.location)]))
      matches = matches.sort((a, b) => distance.get(a)! - distance.get(b)!)
      return answer(matches, limit, distance)
    }
    matches = [...matches.filter((m) => m.number), ...matches.filter((m) => !m.number)]
    return answer(matches, limit)
  },
}

function answer(matches: Match[], limit: number, distance?: Map<Match, number>) {
  const suggestions = matches.slice(0, limit).map((m): PlaceSuggestion => {
    const { candidate: c, number } = m
    const mainText = number ? streetLine(c.street!, c.street!.name, number) : c.mainText
    const d = distance?.get(m)
    return {
      id: c.id,
      kind: number ? 'address' : c.street ? 'street' : 'city',
      text: `${mainText}, ${c.secondaryText}`,
      mainText,
      secondaryText: c.secondaryText,
      ...(number ? { houseNumber: number } : {}),
      location: c.location,
      ...(d === undefined ? {} : { distanceMeters: Math.round(d) }),
    }
  })
  return { status: 200, body: { suggestions, complete: matches.length <= limit } }
}
