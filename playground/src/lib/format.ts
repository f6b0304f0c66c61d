import { isTandemError } from '@tandem/core'

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

export function time(at: number | string): string {
  return new Date(at).toLocaleTimeString('en-GB', { hour12: false })
}

export function dateTime(at: string): string {
  return new Date(at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', hour12: false })
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
