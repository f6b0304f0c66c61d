// HMAC-SHA256 through Web Crypto, the one primitive both tokens and webhooks need.

const encoder = new TextEncoder()
const ALGORITHM = { name: 'HMAC', hash: 'SHA-256' } as const

function importKey(secret: string): Promise<CryptoKey> {
  // Not extractable: the key material cannot leak back out of the CryptoKey.
  return globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), ALGORITHM, false, ['sign', 'verify'])
}

export async function hmacSha256(secret: string, data: string): Promise<Uint8Array<ArrayBuffer>> {
  const key = await importKey(secret)
  return new Uint8Array(await globalThis.crypto.subtle.sign(ALGORITHM, key, encoder.encode(data)))
}

/** Web Crypto's verify compares in constant time, unlike comparing strings ourselves. */
export async function hmacSha256Verify(
  secret: string,
  signature: Uint8Array<ArrayBuffer>,
  data: string,
): Promise<boolean> {
  const key = await importKey(secret)
  return globalThis.crypto.subtle.verify(ALGORITHM, key, signature, encoder.encode(data))
}

/** Constant-time equality for two digests: always walks the full length. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length
  const length = Math.max(a.length, b.length)
  for (let i = 0; i < length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return diff === 0
}
