import { LAT_MAX, LNG_MAX } from '@tandem/contract'
import { isTandemError } from '@tandem/core'
import { connectivityOf, connectivitySentence } from './connectivity.js'

export function km(meters: number): string {
  const k = meters / 1000
  return `${k >= 100 ? Math.round(k).toLocaleString('en') : k.toFixed(1)} km`
}

export function duration(seconds: number): string {
  const m = Math.round(seconds / 60)
  if (m < 60) return `${m} min`
  const h = Math.floor(m / 60)
  return h >= 48 ? `${Math.floor(h / 24)} d ${h % 24} h` : `${h} h ${m % 60} min`
}

// Made once: toLocale*String with options builds a new Intl.DateTimeFormat on every call, which
// cost ~0.5 ms per row and made a 200-thread view re-render in 100 ms (issue 44's 100 held replies).
const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })
const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', hour12: false })

export function time(at: number | string): string {
  return TIME.format(new Date(at))
}

export function dateTime(at: string): string {
  return DATE_TIME.format(new Date(at))
}

/**
 * A typed error as one line: code, message and request id (what a support ticket needs). The SDK's
 * own messages already name the request id: it is added only when the message lacks it.
 */
export function describeError(error: unknown): string {
  if (isTandemError(error)) {
    const id = error.requestId && !error.message.includes(error.requestId) ? ` (request ${error.requestId})` : ''
    return `${error.code}: ${error.message}${id}`
  }
  return error instanceof Error ? error.message : String(error)
}

/** The input an error is about: a ValidationError's `field`, or the first of an ApiError's `details`. */
export function errorField(error: unknown): string | undefined {
  if (!isTandemError(error)) return undefined
  if ('field' in error && typeof error.field === 'string') return error.field
  const first: unknown = Array.isArray(error.details) ? error.details[0] : undefined
  return first && typeof first === 'object' && 'field' in first && typeof first.field === 'string'
    ? first.field
    : undefined
}

/** What a person calls each input the SDK and the services name by their wire name. */
const FIELD_SENTENCE: [RegExp, string][] = [
  [/^regionCode$/, 'The region must be a two-letter country code, such as PT or FR.'],
  [/^addressLines/, 'Type the street and the house number, such as “Rua Augusta 100”.'],
  [/^locality$/, 'Check the locality (the town or city).'],
  [/^postalCode$/, 'Check the postal code.'],
  [/\.lat$/, `The latitude must be a number from -${LAT_MAX} to ${LAT_MAX}.`],
  [/\.lng$/, `The longitude must be a number from -${LNG_MAX} to ${LNG_MAX}.`],
  [/^query$/, 'Check the search text: type a place or an address.'],
  [/^(origin|destination|waypoints)/, 'One of the stops is not known to the maps service any more: pick it again.'],
  [/^subject$/, 'Give the conversation a subject.'],
  [/^customer\.email$/, 'Check the customer’s email address, such as kim@example.com.'],
  [/^customer\.name$/, 'Check the customer’s name.'],
  [/^customer/, 'Check the customer’s name and email address.'],
  [/^text$/, 'Write the message (it may not be empty or too long).'],
  [/^mailboxId$/, 'Pick a mailbox.'],
  [/^status$/, 'That status is not one the conversation can take.'],
]

/**
 * A sentence a person understands, chosen from the error's code and the field it names. The
 * technical line (code, request id, the SDK's message) is for ErrorDetails' disclosure, not here.
 */
export function humanError(error: unknown, service = 'maps'): string {
  if (!isTandemError(error)) return 'Something went wrong. Try again.'
  // Offline, or the token endpoint out of reach: it ends by itself, and a reload cannot help.
  const connectivity = connectivityOf(error, navigator.onLine)
  if (connectivity) return connectivitySentence(connectivity, service)
  switch (error.code) {
    case 'unknown_region':
      return 'That region is not a country we know. Use a two-letter country code, such as PT or FR.'
    case 'route_not_found':
      return 'There is no route by this mode between these stops: they may be across the sea, or too far apart to walk or cycle.'
    case 'rate_limited':
    case 'rate_limit_wait':
      return `The ${service} service is busy. Wait a few seconds and try again.`
    case 'network_error':
      return `The ${service} service could not be reached. Check the connection and try again.`
    case 'timeout':
      return `The ${service} service took too long to answer. Try again.`
    case 'not_found':
      return 'It is not there any more: it may have been deleted. Reload the list.'
  }
  const field = errorField(error)
  const sentence = field && FIELD_SENTENCE.find(([pattern]) => pattern.test(field))?.[1]
  if (sentence) return sentence
  if (error.name === 'AuthError') return 'Your session could not be confirmed. Reload the page.'
  return 'Something went wrong on our side. The details below help support find it.'
}

/** A file's size as a person reads it: 812 B, 14 KB, 3.2 MB (1 KB = 1,024 bytes, as the limits count). */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const kb = bytes / 1024
  if (kb < 1024) return `${kb < 10 ? kb.toFixed(1) : Math.round(kb)} KB`
  const mb = kb / 1024
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`
}
