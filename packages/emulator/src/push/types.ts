// Public types of the emulator's Web Push sender (docs/push.md), apart from the code.
import type { Agent } from 'node:https'
import type { PushKind, PushPayload } from '@tandem/contract'

export interface PushOptions {
  /**
   * How long after a message the subject must still have no open realtime connection before the
   * push goes out. Tests pass a short one.
   * @default PUSH.graceMs of @tandem/contract (10_000)
   */
  graceMs?: number
  /**
   * The https.Agent pushes are sent with: a test trusts its local receiver's self-signed
   * certificate here (`new https.Agent({ ca })`).
   */
  agent?: Agent
  /**
   * Per push: a push service that has not answered by then is given up on (`failed`).
   * @default 10_000
   */
  timeoutMs?: number
}

/**
 * `pending`: waiting out the grace period. Then `sent` (2xx), `failed` (another status, a
 * network error, a timeout), `gone` (404/410: the subscription is removed), `skipped-open` (the
 * subject had a connection open at the message) or `cancelled` (one opened during the grace, or
 * the subscription was removed first).
 */
export type PushDeliveryStatus = 'pending' | 'sent' | 'failed' | 'gone' | 'skipped-open' | 'cancelled'

/** One message for one subscription. Never holds the subscription's keys or the VAPID private key. */
export interface PushDelivery {
  /** `pdl_…`. */
  id: string
  app: string
  subscriptionId: string
  subject: string
  kind: PushKind
  endpoint: string
  messageId: string
  conversationId: string
  /** What was (or would have been) encrypted and sent, in plain text. */
  payload: PushPayload
  status: PushDeliveryStatus
  /** The push service's answer, when one came. */
  httpStatus?: number
  /** Why it failed: `HTTP 500`, `Socket timeout`, `ECONNREFUSED`, … */
  error?: string
  /** ISO 8601: when the status was last set. */
  at: string
}

/** `emulator.push`: what was pushed, and the key it was signed with. */
export interface PushControls {
  /** The VAPID public key (base64url), as `GET /realtime/v1/push/key` answers. */
  readonly publicKey: string
  /** Every delivery, oldest first (a copy; the newest 1000). */
  deliveries(): PushDelivery[]
  /**
   * Resolves with the first delivery (present or future, in any status update) `predicate`
   * accepts; rejects after `timeoutMs` (default 5000).
   */
  waitFor(predicate: (delivery: PushDelivery) => boolean, options?: { timeoutMs?: number }): Promise<PushDelivery>
  /** Each new delivery and each status change; returns the function that stops listening. */
  on(listener: (delivery: PushDelivery) => void): () => void
}
