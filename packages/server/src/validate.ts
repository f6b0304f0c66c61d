import { DEFAULTS } from './defaults.js'

// Argument checks shared by the minting APIs. Messages name the field, never its value,
// because the value may be a secret.

export function assertNonEmptyString(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${field} must be a non-empty string`)
  }
}

/** Resolves `ttlSeconds`, defaulting it and enforcing the lifetime bounds. */
export function resolveTtl(ttlSeconds: unknown): number {
  if (ttlSeconds === undefined) return DEFAULTS.ttlSeconds
  if (typeof ttlSeconds !== 'number') throw new TypeError('ttlSeconds must be a number')
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < DEFAULTS.minTtlSeconds || ttlSeconds > DEFAULTS.maxTtlSeconds) {
    throw new RangeError(`ttlSeconds must be an integer from ${DEFAULTS.minTtlSeconds} to ${DEFAULTS.maxTtlSeconds}`)
  }
  return ttlSeconds
}

/** Resolves `now` (ms since the epoch), defaulting to the current time. */
export function resolveNow(now: unknown): number {
  if (now === undefined) return Date.now()
  if (typeof now !== 'number' || !Number.isFinite(now) || now < 0) {
    throw new TypeError('now must be a non-negative finite number of milliseconds')
  }
  return now
}

/**
 * Normalises a scope to a list. A string is read as the space-separated form used inside
 * the JWT (as in OAuth); list entries must be non-empty and free of whitespace, since
 * whitespace is the separator in the token.
 */
export function normalizeScope(scope: unknown): string[] {
  const entries = typeof scope === 'string' ? scope.split(/\s+/).filter(Boolean) : scope
  if (!Array.isArray(entries)) throw new TypeError('scope must be a string or an array of strings')
  for (const entry of entries) {
    if (typeof entry !== 'string' || entry.length === 0 || /\s/.test(entry)) {
      throw new TypeError('scope entries must be non-empty strings without whitespace')
    }
  }
  return [...(entries as string[])]
}
