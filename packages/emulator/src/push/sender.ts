// Sends pushes the way the standards say, through the field's library (`web-push`): the payload
// encrypted `aes128gcm` for the subscription's keys (RFC 8291), signed with this emulator's VAPID
// key (RFC 8292), POSTed with TTL and Urgency (RFC 8030). Nothing of the crypto is written here.
// Each endpoint gets its pushes in order; one slow endpoint holds up only its own.
import type { Agent } from 'node:https'
import { createRequire } from 'node:module'
import { PUSH, type PushPayload } from '@tandem/contract'
import type { StoredSubscription } from './subscriptions.js'

// web-push is CommonJS whose exports Node's ESM loader does not all see by name: required, typed.
const webPush = createRequire(import.meta.url)('web-push') as typeof import('web-push')

export type SendResult =
  | { status: 'sent'; httpStatus: number }
  | { status: 'gone'; httpStatus: number }
  | { status: 'failed'; httpStatus?: number; error: string }

export interface PushSender {
  readonly publicKey: string
  /** Never rejects: the outcome says what happened. */
  send(subscription: StoredSubscription, payload: PushPayload): Promise<SendResult>
}

/** The `sub` of every VAPID JWT: who a push service writes to about this sender. */
export const VAPID_SUBJECT = 'mailto:emulator@tandem.dev'

export function createPushSender(options: { agent: Agent | undefined; timeoutMs: number }): PushSender {
  // One key pair per emulator: what `GET /realtime/v1/push/key` publishes.
  const vapid = webPush.generateVAPIDKeys()
  const vapidDetails = { subject: VAPID_SUBJECT, publicKey: vapid.publicKey, privateKey: vapid.privateKey }
  /** Each endpoint's last push, settled or not: the next waits for it. */
  const tails = new Map<string, Promise<unknown>>()

  const attempt = async (subscription: StoredSubscription, payload: PushPayload): Promise<SendResult> => {
    try {
      const answer = await webPush.sendNotification(
        { endpoint: subscription.endpoint, keys: subscription.keys },
        JSON.stringify(payload),
        {
          TTL: PUSH.ttlSeconds,
          urgency: PUSH.urgency,
          vapidDetails,
          contentEncoding: 'aes128gcm',
          timeout: options.timeoutMs,
          ...(options.agent ? { agent: options.agent } : {}),
        },
      )
      return { status: 'sent', httpStatus: answer.statusCode }
    } catch (err) {
      if (err instanceof webPush.WebPushError) {
        // RFC 8030 §7.3: 404 and 410 mean the subscription is no more; a push service requires it be dropped.
        if (err.statusCode === 404 || err.statusCode === 410) return { status: 'gone', httpStatus: err.statusCode }
        return { status: 'failed', httpStatus: err.statusCode, error: `HTTP ${err.statusCode}` }
      }
      return { status: 'failed', error: err instanceof Error ? err.message : String(err) }
    }
  }

  return {
    publicKey: vapid.publicKey,
    send(subscription, payload) {
      const endpoint = subscription.endpoint
      const result = (tails.get(endpoint) ?? Promise.resolve()).then(() => attempt(subscription, payload))
      tails.set(endpoint, result)
      void result.then(() => {
        if (tails.get(endpoint) === result) tails.delete(endpoint)
      })
      return result
    },
  }
}
