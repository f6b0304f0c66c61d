export type TokenErrorCode =
  'token_expired' | 'invalid_signature' | 'malformed_token' | 'unknown_key' | 'wrong_app' | 'token_not_yet_valid'

// Fixed messages: they never echo the token, a claim or a secret, so they are safe to log.
const TOKEN_MESSAGES: Record<TokenErrorCode, string> = {
  token_expired: 'The token has expired.',
  invalid_signature: 'The token signature is invalid.',
  malformed_token: 'The token is malformed.',
  unknown_key: 'The token was signed with an unknown key.',
  wrong_app: 'The token was issued for another app.',
  token_not_yet_valid: 'The token was issued in the future.',
}

/** A token failed verification. Always a 401 for whoever presented it. */
export class TokenError extends Error {
  override readonly name = 'TokenError'
  readonly code: TokenErrorCode
  readonly status = 401 as const

  constructor(code: TokenErrorCode) {
    super(TOKEN_MESSAGES[code])
    this.code = code
  }
}

export type WebhookErrorCode =
  'missing_signature' | 'malformed_signature' | 'invalid_signature' | 'timestamp_out_of_range'

const WEBHOOK_MESSAGES: Record<WebhookErrorCode, string> = {
  missing_signature: 'The webhook signature header is missing.',
  malformed_signature: 'The webhook signature header is malformed.',
  invalid_signature: 'No webhook signature matches.',
  timestamp_out_of_range: 'The webhook timestamp is outside the tolerance window.',
}

// A request we cannot parse is a bad request (400); one that parses but is not
// authentic, or is a replay, is an authentication failure (401).
const WEBHOOK_STATUS: Record<WebhookErrorCode, 400 | 401> = {
  missing_signature: 400,
  malformed_signature: 400,
  invalid_signature: 401,
  timestamp_out_of_range: 401,
}

/** A webhook failed verification. */
export class WebhookError extends Error {
  override readonly name = 'WebhookError'
  readonly code: WebhookErrorCode
  readonly status: 400 | 401

  constructor(code: WebhookErrorCode, message: string = WEBHOOK_MESSAGES[code]) {
    super(message)
    this.code = code
    this.status = WEBHOOK_STATUS[code]
  }
}

/** Why a claim was lost: the store said it is no longer ours, or no renewal got through for a whole lease. */
export type WebhookClaimLostReason = 'taken' | 'unrenewed'

/**
 * A handler kept running after its claim on the event was lost: another instance may claim the
 * event and run its handler at the same time. Reported once per event, to the webhook handler's
 * `onError`; the delivery itself is answered as usual.
 */
export class WebhookClaimError extends Error {
  override readonly name = 'WebhookClaimError'
  readonly code = 'claim_lost' as const
  readonly eventId: string
  readonly reason: WebhookClaimLostReason

  constructor(eventId: string, reason: WebhookClaimLostReason, leaseSeconds: number, cause?: unknown) {
    // Fixed wording and the event id only: a store's error (the cause) may quote a URL with a password.
    super(
      `The claim on webhook event ${eventId} was lost while its handler ran (${
        reason === 'taken' ? 'the store no longer holds it for this run' : `no renewal succeeded for ${leaseSeconds} s`
      }): another instance may run its handler too.`,
      cause === undefined ? undefined : { cause },
    )
    this.eventId = eventId
    this.reason = reason
  }
}
