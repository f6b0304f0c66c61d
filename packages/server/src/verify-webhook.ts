import { DEFAULTS } from './defaults.js'
import { WebhookError } from './errors.js'
import { hmacSha256, timingSafeEqual } from './webhook-hmac.js'
import { toHex, webhookSigningInput } from './sign-webhook.js'
import { resolveNow } from './validate.js'
import { parseWebhookHeader } from './webhook-header.js'

export interface VerifyWebhookOptions {
  /** The raw request body, exactly as received (not re-serialised JSON). */
  body: string
  /** The `Tandem-Signature` header value. */
  header: string | null | undefined
  /** One secret, or several while a rotation is in progress. */
  secret: string | readonly string[]
  /**
   * Replay window either side of now.
   * @default 300
   */
  toleranceSeconds?: number
  /**
   * Current time in ms; for tests.
   * @default `Date.now()`
   */
  now?: number
}

function resolveSecrets(secret: unknown): string[] {
  const secrets = typeof secret === 'string' ? [secret] : secret
  if (!Array.isArray(secrets) || secrets.length === 0 || !secrets.every((s) => typeof s === 'string' && s.length > 0)) {
    throw new TypeError('secret must be a non-empty string or a non-empty array of them')
  }
  return secrets as string[]
}

/**
 * Verifies a signed webhook. Bad options are programmer errors (TypeError); anything wrong
 * with the request (body, header, signature, timestamp) is a WebhookError.
 *
 * @example
 * ```ts
 * await verifyWebhook({ body: await request.text(), header: request.headers.get('tandem-signature'), secret })
 * ```
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<{ timestamp: number }> {
  const secrets = resolveSecrets(options.secret)
  const nowSeconds = resolveNow(options.now) / 1000
  const tolerance = options.toleranceSeconds ?? DEFAULTS.webhookToleranceSeconds
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError('toleranceSeconds must be a non-negative number')
  }

  const { timestamp, signatures } = parseWebhookHeader(options.header)
  const { body } = options
  if (typeof body !== 'string')
    throw new WebhookError('invalid_signature', 'The webhook body must be the raw body string.')

  // One HMAC per secret, then a constant-time compare against every candidate; no early
  // exit inside a comparison, so timing does not reveal how much of a guess was right.
  const input = webhookSigningInput(timestamp, body)
  const encoder = new TextEncoder()
  let matched = false
  for (const secret of secrets) {
    const expected = encoder.encode(toHex(await hmacSha256(secret, input)))
    for (const candidate of signatures) {
      if (timingSafeEqual(expected, encoder.encode(candidate))) matched = true
    }
  }
  if (!matched) throw new WebhookError('invalid_signature')

  // Checked after the signature, so this error only ever describes an authentic (replayed
  // or badly delayed) message.
  if (Math.abs(nowSeconds - timestamp) > tolerance) throw new WebhookError('timestamp_out_of_range')
  return { timestamp }
}
