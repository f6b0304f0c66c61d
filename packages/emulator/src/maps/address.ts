// POST /v1/addresses:validate. Each component gets a confirmation: the locality against the real
// cities of the region (GeoNames), the postal code against the region's format (postcode-validator,
// corrected when only case or separators were off), the street line against the streets the
// geocoder knows too (streets.ts). What is not known is `unconfirmed`, never `confirmed`: a made-up
// street must not come back as a confirmed address (issue 25).
import type { AddressRequest } from '@tandem/contract'
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator'
import { HttpError } from '../http-errors.js'
import type { RouteHandler } from '../resource-routes.js'
import { cityInCountry, type City } from './cities.js'
import { countryByCode, type Country } from './countries.js'
import { fold } from './geo.js'
import { streetResult, type PlaceResult } from './results.js'
import { numberFits, parseStreetLine, streetLine, streetName, streetsNamed } from './streets.js'

type Confirmation = 'confirmed' | 'unconfirmed' | 'fixed' | 'missing'

interface Component {
  type: 'address_line' | 'locality' | 'postal_code' | 'country'
  text: string
  confirmation: Confirmation
  issue?: string
}

export const validateAddress: RouteHandler = {
  write: true, // a POST with a body; nothing is stored
  run: ({ body }) => {
    // Shapes and lengths are the contract's (checked before this runs); here, what they mean.
    const input = body as AddressRequest
    const regionCode = input.regionCode.toUpperCase()
    const country = countryByCode(regionCode)
    if (!country) {
      throw new HttpError(422, 'unknown_region', `No region "${regionCode}".`, [
        { field: 'regionCode', message: 'is not a known ISO 3166-1 alpha-2 region' },
      ])
    }
    const texts = input.addressLines.map((line) => line.trim())
    const localityText = input.locality?.trim()
    const city = localityText === undefined ? undefined : cityInCountry(regionCode, fold(localityText))
    const { components, street } = addressLines(texts, { country, city, localityText })
    if (localityText === undefined)
      components.push({ type: 'locality', text: '', confirmation: 'missing', issue: 'no locality given' })
    else if (!city)
      components.push({
        type: 'locality',
        text: localityText,
        confirmation: 'unconfirmed',
        issue: `not a known locality of ${country.name}`,
      })
    else
      components.push({
        type: 'locality',
        text: city.name,
        confirmation: city.name === localityText ? 'confirmed' : 'fixed',
      })

    const postal = postalCode(input.postalCode?.trim(), regionCode, country.name)
    if (postal) components.push(postal)
    components.push({ type: 'country', text: country.name, confirmation: 'confirmed' })

    const has = (c: Confirmation) => components.some((x) => x.confirmation === c)
    const textOf = (type: Component['type']) => components.find((x) => x.type === type)?.text ?? ''
    const formattedAddress = [
      ...components.filter((c) => c.type === 'address_line').map((c) => c.text),
      [textOf('postal_code'), textOf('locality')].filter(Boolean).join(' '),
      country.name,
    ]
      .filter(Boolean)
      .join(', ')
    return {
      status: 200,
      body: {
        // `fixed` components were corrected here and need no action; missing or unconfirmed ones do.
        verdict: {
          complete: !has('missing'),
          hasUnconfirmedComponents: has('unconfirmed'),
          needsFixes: has('missing') || has('unconfirmed'),
        },
        address: { formattedAddress, components },
        // The street's point when the street was found, else the locality's.
        ...(street
          ? { geocode: { location: street.location, placeId: street.placeId } }
          : city
            ? { geocode: { location: city.location, placeId: city.placeId } }
            : {}),
      },
    }
  },
}

interface Where {
  country: Country
  city: City | undefined
  localityText: string | undefined
}

/**
 * The street line is the first line naming a known street (else the first line); the other lines
 * (a flat, a building) cannot be checked here, so they are unconfirmed, with the reason.
 */
function addressLines(lines: string[], where: Where): { components: Component[]; street?: PlaceResult } {
  const checked = lines.map((line) => streetLineOf(line, where))
  const at = Math.max(
    0,
    checked.findIndex((c) => c.known),
  )
  const components = checked.map((c, i): Component =>
    i === at
      ? c.component
      : {
          type: 'address_line',
          text: lines[i]!,
          confirmation: 'unconfirmed',
          issue: 'not checked: only the street line can be',
        },
  )
  const found = checked[at]
  return { components, ...(found?.place ? { street: found.place } : {}) }
}

/** One line against the streets of the locality (of the region, when no locality is given). */
function streetLineOf(line: string, where: Where): { known: boolean; component: Component; place?: PlaceResult } {
  const { country, city, localityText } = where
  const unconfirmed = (issue: string) => ({
    known: false,
    component: { type: 'address_line' as const, text: line, confirmation: 'unconfirmed' as const, issue },
  })
  // "Rua Augusta 100, Lisbon": what follows a comma must be the locality or the country.
  const [first = '', ...rest] = line.split(',').map((part) => part.trim())
  const names = [city?.name, localityText, country.name, country.code].filter(Boolean).map((n) => fold(n!))
  const { street: written, number } = parseStreetLine(first)
  const inRegion = streetsNamed(written, { country: country.code })
  // A locality given but unknown confirms no street: where the street is depends on it.
  const here = localityText === undefined ? inRegion : city ? inRegion.filter((s) => fold(s.locality) === city.key) : []
  if (here.length === 0) {
    const elsewhere = localityText !== undefined && inRegion[0] ? ` (there is one in ${inRegion[0].locality})` : ''
    return unconfirmed(`not a street known in ${city?.name ?? localityText ?? country.name}${elsewhere}`)
  }
  if (rest.some((part) => !names.includes(fold(part))))
    return unconfirmed(`“${rest.join(', ')}” does not match the locality or the country`)
  const street = here[0]!
  const name = streetName(street, written)
  if (!number) return { ...unconfirmed(`no house number on ${name}`), known: true }
  if (!numberFits(street, number)) return { ...unconfirmed(`${name} has no number ${number}`), known: true }
  const text = streetLine(street, name, number)
  return {
    known: true,
    component: {
      type: 'address_line',
      text,
      confirmation: text === first && rest.length === 0 ? 'confirmed' : 'fixed',
    },
    place: streetResult(street, name, number),
  }
}

/** Regions without a known postal format neither need nor check a code. */
function postalCode(raw: string | undefined, region: string, countryName: string): Component | undefined {
  if (!postcodeValidatorExistsForCountry(region)) {
    return raw === undefined
      ? undefined
      : {
          type: 'postal_code',
          text: raw,
          confirmation: 'unconfirmed',
          issue: `no postal code format known for ${countryName}`,
        }
  }
  if (raw === undefined)
    return { type: 'postal_code', text: '', confirmation: 'missing', issue: 'no postal code given' }
  const upper = raw.toUpperCase().replace(/\s+/g, ' ')
  const compact = upper.replace(/[\s-]/g, '')
  const split = (n: number, sep: string) =>
    compact.length > n ? `${compact.slice(0, -n)}${sep}${compact.slice(-n)}` : compact
  // The code as written first, then the usual separators ("4000123" → "4000-123" in Portugal).
  const valid = [upper, split(3, '-'), split(3, ' '), split(4, '-'), compact].find((c) => postcodeValidator(c, region))
  if (!valid)
    return {
      type: 'postal_code',
      text: raw,
      confirmation: 'unconfirmed',
      issue: `not a valid postal code of ${countryName}`,
    }
  return { type: 'postal_code', text: valid, confirmation: valid === raw ? 'confirmed' : 'fixed' }
}
