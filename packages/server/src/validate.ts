import { CUSTOMER_ID, CUSTOMER_ID_RULE, isCustomerScope, LIMITS } from '@tandem/contract'
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

/** Who the end user is, for the services to show (a customer's name and email in support). */
export interface TokenProfile {
  /** At most `LIMITS.personName` (200) characters. */
  name?: string
  /** At most `LIMITS.email` (254) characters, and an address (`local@domain.tld`). */
  email?: string
}

// Plausible, not RFC 5322: one @, no whitespace, a dot in the domain (the app vouches for the rest).
const PLAUSIBLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The profile's problem, in words (never its value), or undefined when it is sound. */
export function profileProblem(profile: unknown): string | undefined {
  if (typeof profile !== 'object' || profile === null || Array.isArray(profile)) return 'profile must be an object'
  for (const key of Object.keys(profile))
    if (key !== 'name' && key !== 'email') return 'profile has only name and email'
  const { name, email } = profile as Record<string, unknown>
  if (name !== undefined && (typeof name !== 'string' || name.length === 0 || name.length > LIMITS.personName))
    return `profile.name must be a string of 1 to ${LIMITS.personName} characters`
  if (email !== undefined && (typeof email !== 'string' || email.length > LIMITS.email || !PLAUSIBLE_EMAIL.test(email)))
    return `profile.email must be an email address of at most ${LIMITS.email} characters`
  return undefined
}

/** A copy of a sound profile (undefined stays undefined); TypeError otherwise. */
export function normalizeProfile(profile: unknown): TokenProfile | undefined {
  if (profile === undefined) return undefined
  const problem = profileProblem(profile)
  if (problem) throw new TypeError(problem)
  const { name, email } = profile as TokenProfile
  return { ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}) }
}

/** A customer's subject becomes its channel name (`support:customer:<id>`), so it must be a CUSTOMER_ID. */
export function customerSubjectProblem(subject: string, scope: readonly string[]): string | undefined {
  return isCustomerScope(scope) && !CUSTOMER_ID.test(subject)
    ? `subject of a customer token ${CUSTOMER_ID_RULE}`
    : undefined
}
