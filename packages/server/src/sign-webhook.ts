import { hmacSha256 } from './webhook-hmac.js'
import { assertNonEmptyString } from './validate.js'

export function toHex(bytes: Uint8Array): string {
  let hex = ''
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0')
  return hex
}

/** The exact string a webhook signature covers: the timestamp binds it against replay. */
export function webhookSigningInput(timestamp: number, body: string): string {
  return `${timestamp}.${body}`
}

/**
 * Signs a webhook body; returns the `Tandem-Signature` header value
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 */
export async function signWebhook(body: string, secret: string, timestamp?: number): Promise<string> {
  if (typeof body !== 'string') throw new TypeError('body must be the raw body string')
  assertNonEmptyString(secret, 'secret')
  const t = timestamp ?? Math.floor(Date.now() / 1000)
  if (!Number.isSafeInteger(t) || t < 0)
    throw new RangeError('timestamp must be a non-negative integer of unix seconds')
  return `t=${t},v1=${toHex(await hmacSha256(secret, webhookSigningInput(t, body)))}`
}
