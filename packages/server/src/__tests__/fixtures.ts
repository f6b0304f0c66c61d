// Shared test constants. Secrets are long and distinctive so a leak into a message is findable.
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
