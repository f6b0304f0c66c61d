// POST /v1/addresses:validate. Each component gets a confirmation: the locality against the real
// cities of the region (GeoNames), the postal code against the region's format (postcode-validator,
// corrected when only case or separators were off), address lines for plausibility only (a street
// name and a house number: there is no street database here).
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator'
import { HttpError } from '../http-errors.js'
import type { RouteHandler } from '../resource-routes.js'
import { cityInCountry } from './cities.js'
import { countryByCode } from './countries.js'
import { DEFAULTS } from './defaults.js'
import { fold } from './geo.js'
import { invalid, requireBody } from '../validate.js'
import { trimmedText } from './params.js'

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
    const input = requireBody(body)
    const regionCode = trimmedText(input.regionCode, 'regionCode', 2).toUpperCase()
    if (!/^[A-Z]{2}$/.test(regionCode)) throw invalid('regionCode', 'must be an ISO 3166-1 alpha-2 code such as "PT"')
    const country = countryByCode(regionCode)
    if (!country) {
      throw new HttpError(422, 'unknown_region', `No region "${regionCode}".`, [
        { field: 'regionCode', message: 'is not a known ISO 3166-1 alpha-2 region' },
      ])
    }
    const lines = input.addressLines
    if (!Array.isArray(lines) || lines.length === 0 || lines.length > DEFAULTS.addressLines) {
      throw invalid('addressLines', `must be an array of 1 to ${DEFAULTS.addressLines} lines`)
    }
    const components: Component[] = lines.map((line, i) => addressLine(trimmedText(line, `addressLines[${i}]`)))

    const localityText = input.locality === undefined ? undefined : trimmedText(input.locality, 'locality')
    const city = localityText === undefined ? undefined : cityInCountry(regionCode, fold(localityText))
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

    const postal = postalCode(
      input.postalCode === undefined ? undefined : trimmedText(input.postalCode, 'postalCode'),
      regionCode,
      country.name,
    )
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
        ...(city ? { geocode: { location: city.location, placeId: city.placeId } } : {}),
      },
    }
  },
}

function addressLine(line: string): Component {
  const plausible = /\p{L}{2}/u.test(line) && /\d/.test(line)
  return plausible
    ? { type: 'address_line', text: line, confirmation: 'confirmed' }
    : { type: 'address_line', text: line, confirmation: 'unconfirmed', issue: 'expected a street and a house number' }
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
