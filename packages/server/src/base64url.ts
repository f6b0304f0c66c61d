// base64url (RFC 4648 §5, no padding) over btoa/atob, so it runs in every runtime.

export function encodeBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export function encodeBase64UrlText(text: string): string {
  return encodeBase64Url(new TextEncoder().encode(text))
}

/**
 * Decodes strictly: returns null for anything but canonical unpadded base64url. Canonical
 * matters for signatures: otherwise two strings differing in unused trailing bits would
 * both verify, and a "tampered" token would still pass.
 */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null
  let binary: string
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4))
  } catch {
    return null
  }
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return encodeBase64Url(bytes) === text ? bytes : null
}
