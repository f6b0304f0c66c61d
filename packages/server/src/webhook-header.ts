import { DEFAULTS } from './defaults.js'
import { WebhookError } from './errors.js'

export interface ParsedWebhookHeader {
  timestamp: number
  /** Every `v1=` digest, lower-cased hex; any one may match (the sender may sign with several secrets). */
  signatures: string[]
}

/**
 * Parses `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`. Unknown schemes (a future `v2=`) are
 * skipped so senders can add them without breaking older receivers.
 */
export function parseWebhookHeader(header: unknown): ParsedWebhookHeader {
  if (header === undefined || header === null || header === '') throw new WebhookError('missing_signature')
  if (typeof header !== 'string' || header.length > DEFAULTS.maxWebhookHeaderLength) {
    throw new WebhookError('malformed_signature')
  }
  let timestamp: number | undefined
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const separator = part.indexOf('=')
    if (separator < 0) throw new WebhookError('malformed_signature')
    const key = part.slice(0, separator).trim()
    const value = part.slice(separator + 1).trim()
    if (key === 't') {
      // Exactly one timestamp, plain digits: no signs, exponents or fractions.
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) throw new WebhookError('malformed_signature')
      timestamp = Number(value)
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new WebhookError('malformed_signature')
      signatures.push(value.toLowerCase())
    }
  }
  if (timestamp === undefined || signatures.length === 0 || signatures.length > DEFAULTS.maxWebhookSignatures) {
    throw new WebhookError('malformed_signature')
  }
  return { timestamp, signatures }
}
