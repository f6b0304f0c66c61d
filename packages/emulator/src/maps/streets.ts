// The streets the maps emulator knows: one small, hand-made list that both the geocoder and the
// address validator read, so a street one of them knows the other knows too (issue 25). It is a
// stand-in, not a street database: a few well-known streets per city, each at one point (roughly
// its middle) with the highest house number it plausibly has.
import { fold, type LatLng } from './geo.js'

export interface Street {
  /** Stable, readable: `pt-lisbon-rua-augusta`. */
  id: string
  name: string
  /** Other names people write ("Queen's Road" for Queen's Road Central, "5th Avenue"). */
  aliases: string[]
  /** The GeoNames name of its city, as address validation confirms it. */
  locality: string
  country: string
  location: LatLng
  maxNumber: number
}

type Row = [
  country: string,
  locality: string,
  name: string,
  lat: number,
  lng: number,
  maxNumber: number,
  ...aliases: string[],
]

const ROWS: Row[] = [
  ['PT', 'Lisbon', 'Rua Augusta', 38.7105, -9.137, 300],
  ['PT', 'Lisbon', 'Avenida da Liberdade', 38.72, -9.1454, 280],
  ['PT', 'Lisbon', 'Rua Garrett', 38.7108, -9.1418, 120],
  ['PT', 'Porto', 'Rua de Santa Catarina', 41.149, -8.6063, 900],
  ['PT', 'Porto', 'Avenida dos Aliados', 41.1486, -8.611, 250],
  ['PT', 'Porto', 'Rua das Flores', 41.1435, -8.6135, 350],
  ['PT', 'Coimbra', 'Rua Ferreira Borges', 40.2098, -8.4294, 200],
  ['ES', 'Madrid', 'Gran Vía', 40.42, -3.7025, 100],
  ['ES', 'Madrid', 'Calle de Alcalá', 40.423, -3.688, 700, 'Calle Alcalá'],
  ['ES', 'Barcelona', 'La Rambla', 41.3809, 2.173, 150, 'Las Ramblas'],
  ['ES', 'Barcelona', 'Passeig de Gràcia', 41.3925, 2.165, 150],
  ['FR', 'Paris', 'Avenue des Champs-Élysées', 48.8698, 2.3076, 160, 'Champs-Élysées'],
  ['FR', 'Paris', 'Rue de Rivoli', 48.86, 2.34, 250],
  ['FR', 'Paris', 'Boulevard Saint-Germain', 48.853, 2.334, 290],
  ['FR', 'Marseille', 'La Canebière', 43.2975, 5.379, 110],
  ['DE', 'Berlin', 'Unter den Linden', 52.517, 13.389, 80],
  ['DE', 'Berlin', 'Kurfürstendamm', 52.503, 13.329, 240, 'Kurfuerstendamm', 'Kurfurstendamm'],
  ['DE', 'Berlin', 'Friedrichstraße', 52.516, 13.388, 250, 'Friedrichstrasse'],
  ['DE', 'Munich', 'Maximilianstraße', 48.139, 11.585, 60, 'Maximilianstrasse'],
  ['GB', 'London', 'Oxford Street', 51.515, -0.142, 550],
  ['GB', 'London', 'Baker Street', 51.522, -0.157, 250],
  ['GB', 'London', 'Downing Street', 51.5033, -0.1276, 12],
  ['GB', 'Edinburgh', 'Princes Street', 55.952, -3.196, 150],
  ['IT', 'Rome', 'Via del Corso', 41.901, 12.48, 530],
  ['IT', 'Milan', 'Via Monte Napoleone', 45.4685, 9.195, 30, 'Via Montenapoleone'],
  ['NL', 'Amsterdam', 'Damrak', 52.376, 4.897, 100],
  ['NL', 'Amsterdam', 'Kalverstraat', 52.37, 4.8915, 230],
  ['US', 'New York City', 'Fifth Avenue', 40.774, -73.965, 2200, '5th Avenue'],
  ['US', 'New York City', 'Broadway', 40.759, -73.985, 4000],
  ['US', 'Los Angeles', 'Hollywood Boulevard', 34.1016, -118.3267, 7100],
  ['US', 'San Francisco', 'Lombard Street', 37.8021, -122.4187, 3400],
  ['US', 'Mountain View', 'Amphitheatre Parkway', 37.422, -122.0841, 2000, 'Amphitheatre Pkwy'],
  ['US', 'Mountain View', 'Castro Street', 37.3894, -122.0819, 1000],
  ['US', 'Cupertino', 'Infinite Loop', 37.3318, -122.0312, 6],
  ['US', 'San Francisco', 'Market Street', 37.7897, -122.4001, 3000],
  ['US', 'Washington, D.C.', 'Pennsylvania Avenue', 38.8977, -77.0365, 3000],
  ['US', 'Chicago', 'North Michigan Avenue', 41.89, -87.624, 1000, 'Michigan Avenue'],
  ['HK', 'Hong Kong', 'Queen’s Road Central', 22.282, 114.156, 400, 'Queen’s Road'],
  ['HK', 'Hong Kong', 'Nathan Road', 22.3045, 114.1717, 800],
  ['JP', 'Tokyo', 'Chūō-dōri', 35.6717, 139.765, 10, 'Chuo-dori'],
  ['BR', 'São Paulo', 'Avenida Paulista', -23.5614, -46.6559, 2500],
  ['AR', 'Buenos Aires', 'Avenida 9 de Julio', -34.6037, -58.3816, 1900],
  ['AU', 'Sydney', 'George Street', -33.8688, 151.207, 700],
  ['CA', 'Toronto', 'Yonge Street', 43.6561, -79.3802, 10000],
]

/** Countries whose addresses put the house number first ("10 Downing Street"); the rest put it last. */
const NUMBER_FIRST = new Set(['GB', 'US', 'FR', 'HK', 'AU', 'CA', 'JP'])

const slug = (text: string) => fold(text).replace(/ /g, '-')

export const STREETS: readonly Street[] = ROWS.map(([country, locality, name, lat, lng, maxNumber, ...aliases]) => ({
  id: slug(`${country} ${locality} ${name}`),
  name,
  aliases,
  locality,
  country,
  location: { lat, lng },
  maxNumber,
}))

/** Folded name or alias → streets (namesakes in other cities share a key). Straight and curly apostrophes fold alike. */
const byKey = new Map<string, Street[]>()
for (const street of STREETS)
  for (const key of new Set([street.name, ...street.aliases].map(fold)))
    byKey.set(key, [...(byKey.get(key) ?? []), street])
const byId = new Map(STREETS.map((s) => [s.id, s]))

/** A street part as written: the street's text and the house number, when there is one (either side). */
export interface StreetLine {
  street: string
  number?: string
}

const NUMBER = String.raw`\d{1,6}(?:\s?[a-z])?(?:-\d{1,6})?`
const TRAILING = new RegExp(String.raw`^(.*?\D)[\s,]+(?:n\.?º?\s*)?(${NUMBER})$`, 'iu')
const LEADING = new RegExp(String.raw`^(${NUMBER})[\s,]+(\D.*)$`, 'iu')

const compact = (number: string) => number.replace(/\s/g, '').toUpperCase()

export function parseStreetLine(text: string): StreetLine {
  const line = text.trim().replace(/\s+/g, ' ')
  const trailing = TRAILING.exec(line)
  if (trailing) return { street: trailing[1]!.trim(), number: compact(trailing[2]!) }
  const leading = LEADING.exec(line)
  if (leading) return { street: leading[2]!.trim(), number: compact(leading[1]!) }
  return { street: line }
}

/** Streets of that name (folded), in a country and a city when given. */
export function streetsNamed(name: string, where: { country?: string; locality?: string } = {}): Street[] {
  return (byKey.get(fold(name)) ?? []).filter(
    (s) =>
      (!where.country || s.country === where.country) && (!where.locality || fold(s.locality) === fold(where.locality)),
  )
}

/** The name a person writes for that street (the alias they used, when they used one). */
export function streetName(street: Street, written: string): string {
  const key = fold(written)
  return [street.name, ...street.aliases].find((n) => fold(n) === key) ?? street.name
}

/** Whether a house number can be on that street: "12", "12A" and "10-12" up to its highest number. */
export function numberFits(street: Street, number: string): boolean {
  const n = Number.parseInt(number, 10)
  return n >= 1 && n <= street.maxNumber
}

/** The line as the street's country writes it: "Rua Augusta 100", "10 Downing Street". */
export function streetLine(street: Street, name: string, number?: string): string {
  if (!number) return name
  return NUMBER_FIRST.has(street.country) ? `${number} ${name}` : `${name} ${number}`
}

const PREFIX = 'street_'

/** A street address's place id: usable as a route stop like a city's. */
export const streetPlaceId = (street: Street, number?: string): string =>
  `${PREFIX}${street.id}${number ? `:${number}` : ''}`

export function streetByPlaceId(placeId: string): { street: Street; number?: string } | undefined {
  if (!placeId.startsWith(PREFIX)) return undefined
  const [id = '', number] = placeId.slice(PREFIX.length).split(':')
  const street = byId.get(id)
  if (!street || (number !== undefined && !(/^[0-9A-Z-]{1,15}$/.test(number) && numberFits(street, number))))
    return undefined
  return { street, ...(number ? { number } : {}) }
}
