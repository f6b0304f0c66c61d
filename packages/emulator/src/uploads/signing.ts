// Download URLs without a token (docs/uploads.md, "Downloads"): `expires` (unix seconds) and an
// HMAC-SHA256 of the upload id and that time under a secret of this emulator alone, base64url.
// Anyone holding the URL may fetch the file until it expires; nobody can make one for another
// file or a later time.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { UPLOADS } from '@tandem/contract'

export interface SignedUrl {
  url: string
  /** When `url` stops working (ISO 8601). */
  expiresAt: string
}

export interface Signer {
  /** A URL for `id` under `origin`, good for UPLOADS.downloadTtlSeconds from `now` (ms). */
  sign(origin: string, id: string, now: number): SignedUrl
  /** True when `signature` is ours for `id` and `expires`, and `expires` (unix seconds) is not past at `now`. */
  verify(id: string, expires: string | null, signature: string | null, now: number): boolean
  /** Seconds the URL has left at `now` (0 when past). */
  left(expires: string, now: number): number
}

export const FILES_PATH = '/support/v1/files'

export function createSigner(secret: Buffer = randomBytes(32)): Signer {
  const mac = (id: string, expires: number) =>
    createHmac('sha256', secret).update(`${id}\n${expires}`).digest('base64url')
  return {
    sign(origin, id, now) {
      const expires = Math.floor(now / 1000) + UPLOADS.downloadTtlSeconds
      const query = `expires=${expires}&signature=${mac(id, expires)}`
      return { url: `${origin}${FILES_PATH}/${id}?${query}`, expiresAt: new Date(expires * 1000).toISOString() }
    },
    verify(id, expires, signature, now) {
      if (expires === null || signature === null || !/^\d{1,12}$/.test(expires)) return false
      if (Number(expires) * 1000 < now) return false
      const want = Buffer.from(mac(id, Number(expires)))
      const got = Buffer.from(signature)
      return got.length === want.length && timingSafeEqual(got, want)
    },
    left: (expires, now) => Math.max(0, Number(expires) - Math.floor(now / 1000)),
  }
}
