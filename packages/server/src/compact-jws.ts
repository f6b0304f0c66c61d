import { DEFAULTS } from './defaults.js'

// Shape guards run before jose sees a token: they bound the work hostile input can cause
// and keep one canonical spelling per token. Parsing and verifying are jose's.

/** `<header>.<payload>.<signature>` in base64url characters (no padding), within the size cap. */
const COMPACT = /^[\w-]+\.[\w-]+\.[\w-]*$/

/**
 * An HS256 signature is 32 bytes: 43 base64url characters, whose last one carries 2 unused
 * bits that must be zero. Decoders ignore those bits, so without this check a token with a
 * sibling last character (same bytes, other text) would verify too.
 */
const HS256_SIGNATURE = /\.[\w-]{42}[AEIMQUYcgkosw048]$/

export function isCompactJws(token: unknown): token is string {
  return typeof token === 'string' && token.length <= DEFAULTS.maxTokenLength && COMPACT.test(token)
}

export function hasCanonicalHs256Signature(token: string): boolean {
  return HS256_SIGNATURE.test(token)
}
