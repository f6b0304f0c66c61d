/** Every tunable default of `@tandem/server`, in one place so docs and code cannot drift. */
export const DEFAULTS = {
  /** Token lifetime when the caller gives none (DESIGN §2: 10 minutes). */
  ttlSeconds: 600,
  /** Shorter tokens would expire before a client could use them. */
  minTtlSeconds: 60,
  /** Longer tokens defeat the point of short-lived credentials; also the oldest `iat` accepted. */
  maxTtlSeconds: 86_400,
  /**
   * THE clock tolerance for tokens: skew allowed between the minting and the verifying clock,
   * for `exp`, `nbf` and `iat` (jose's `clockTolerance`). The emulator's REST and socket
   * both verify with it, so a token is accepted or refused the same way on both.
   */
  clockToleranceSeconds: 5,
  /** Webhook replay window, either side of now (DESIGN §2: 5 minutes). */
  webhookToleranceSeconds: 300,
  /**
   * How long a webhook claim holds without renewal, with a store that renews (`renew`): the
   * handler renews it every third of this while it runs, so only a claim whose holder is gone
   * (or whose reply was lost) lapses, and the sender's retry after it (36 s in) lands.
   */
  webhookLeaseSeconds: 30,
  /** Real tokens are a few hundred bytes; the cap bounds work on hostile input. */
  maxTokenLength: 8_192,
  /** Same reasoning for the webhook signature header. */
  maxWebhookHeaderLength: 8_192,
  /** Bound the HMAC comparisons a single webhook header can cause. */
  maxWebhookSignatures: 8,
  /** Request body cap for `toNodeListener`; a token request carries almost nothing. */
  maxBodyBytes: 65_536,
} as const
