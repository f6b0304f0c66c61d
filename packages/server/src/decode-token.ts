import { decodeJwt, decodeProtectedHeader } from 'jose'
import { isCompactJws } from './compact-jws.js'

/**
 * Decodes a token WITHOUT verifying it: nothing here is trustworthy. It exists so a
 * verifier can find which app (and so which keys) a token claims before verifying it.
 * Never throws; null when the token is not a well-formed JWT.
 */
export function decodeToken(
  token: string,
): { header: Record<string, unknown>; claims: Record<string, unknown> } | null {
  if (!isCompactJws(token)) return null
  try {
    return { header: decodeProtectedHeader(token), claims: decodeJwt(token) }
  } catch {
    return null
  }
}
