import { parseTokenParts } from './token-parts.js'

/**
 * Decodes a token WITHOUT verifying it: nothing here is trustworthy. It exists so a
 * verifier can find which app (and so which keys) a token claims before verifying it.
 * Never throws; null when the token is not a well-formed JWT.
 */
export function decodeToken(
  token: string,
): { header: Record<string, unknown>; claims: Record<string, unknown> } | null {
  const parts = parseTokenParts(token)
  return parts === null ? null : { header: parts.header, claims: parts.claims }
}
