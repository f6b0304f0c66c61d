import { decodeBase64Url } from './base64url.js'
import { DEFAULTS } from './defaults.js'

export interface TokenParts {
  header: Record<string, unknown>
  claims: Record<string, unknown>
  /** The exact bytes the signature covers: `<header>.<payload>` as received. */
  signingInput: string
  signature: Uint8Array<ArrayBuffer>
}

// fatal: invalid UTF-8 is a malformed token, not a string full of U+FFFD.
const decoder = new TextDecoder('utf-8', { fatal: true })

function decodeJsonObject(segment: string): Record<string, unknown> | null {
  const bytes = decodeBase64Url(segment)
  if (bytes === null) return null
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

/** Splits and decodes a compact JWS without verifying it. Never throws; null when malformed. */
export function parseTokenParts(token: unknown): TokenParts | null {
  if (typeof token !== 'string' || token.length > DEFAULTS.maxTokenLength) return null
  const segments = token.split('.')
  if (segments.length !== 3) return null
  const [headerSegment = '', payloadSegment = '', signatureSegment = ''] = segments
  const header = decodeJsonObject(headerSegment)
  const claims = decodeJsonObject(payloadSegment)
  const signature = decodeBase64Url(signatureSegment)
  if (header === null || claims === null || signature === null) return null
  return { header, claims, signingInput: `${headerSegment}.${payloadSegment}`, signature }
}
