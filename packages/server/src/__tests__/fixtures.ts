// Shared test constants. Secrets are long and distinctive so a leak into a message is findable.
import { createHmac } from 'node:crypto'

export const APP = 'app_test'
export const KID = 'key_2024'
export const SECRET = 'sk_test_5a1c9e7f0b3d4a6c8e2f1a3b5c7d9e0f'
export const OLD_KID = 'key_2023'
export const OLD_SECRET = 'sk_test_old_aa11bb22cc33dd44ee55ff66aa77bb88'
export const NOW = Date.UTC(2025, 0, 15, 12, 0, 0)

/** Deterministic PRNG (mulberry32) so the randomized tests are repeatable. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

export function b64url(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return Buffer.from(text).toString('base64url')
}

/**
 * Signs a compact JWS by hand (node:crypto, not jose), so a test can build the hostile tokens
 * jose would never mint: another alg, a missing claim, a payload that is not a claims set.
 */
export function forge(
  header: unknown,
  payload: unknown,
  secret = SECRET,
  hash: 'sha256' | 'sha512' = 'sha256',
): string {
  const signingInput = `${b64url(header)}.${b64url(payload)}`
  return `${signingInput}.${createHmac(hash, secret).update(signingInput).digest('base64url')}`
}

/** Signs already-encoded segments, for tokens whose segments are themselves broken. */
export function signSegments(header: string, payload: string, secret = SECRET): string {
  return `${header}.${payload}.${createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')}`
}
