// HMAC-SHA256 through Web Crypto, for webhook signatures (not JWTs: tokens are jose's).

const encoder = new TextEncoder()
const ALGORITHM = { name: 'HMAC', hash: 'SHA-256' } as const

export async function hmacSha256(secret: string, data: string): Promise<Uint8Array<ArrayBuffer>> {
  // Not extractable: the key material cannot leak back out of the CryptoKey.
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), ALGORITHM, false, ['sign'])
  return new Uint8Array(await globalThis.crypto.subtle.sign(ALGORITHM, key, encoder.encode(data)))
}

/** Constant-time equality for two digests: always walks the full length. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length
  const length = Math.max(a.length, b.length)
  for (let i = 0; i < length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return diff === 0
}
