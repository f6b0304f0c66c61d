import { errors } from 'jose'
import { TokenError } from './errors.js'

/**
 * Maps whatever jose refused to Tandem's typed error. The jose error is dropped, not kept
 * as a cause: a claim-validation error carries the whole (unverified) payload.
 */
export function toTokenError(error: unknown): TokenError {
  if (error instanceof TokenError) return error
  if (error instanceof errors.JWTExpired) return new TokenError('token_expired')
  if (error instanceof errors.JWSSignatureVerificationFailed) return new TokenError('invalid_signature')
  if (error instanceof errors.JWTClaimValidationFailed && error.reason === 'check_failed') {
    if (error.claim === 'aud') return new TokenError('wrong_app')
    // nbf in the future, or iat in the future beyond the tolerance.
    if (error.claim === 'nbf' || error.claim === 'iat') return new TokenError('token_not_yet_valid')
  }
  // A missing or mistyped claim, a disallowed alg (none, HS512, RS256…), bad base64 or JSON.
  return new TokenError('malformed_token')
}
