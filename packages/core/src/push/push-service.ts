import {
  PUSH_PUBLIC_KEY,
  PUSH_PUBLIC_KEY_FIELDS,
  PUSH_SUBSCRIPTION_FIELDS,
  PUSH_SUBSCRIPTION_PAGE_FIELDS,
  wrongField,
  type PushSubscriptionCreate,
  type PushSubscriptionPage,
  type PushSubscriptionRecord,
} from '@tandem/contract'
import { validateId } from '../collection.js'
import type { Http } from '../http.js'

// The service's push operations (docs/push.md) through the client's pipeline: tokens, rate limits,
// retries and typed errors as every other call; each answer checked against the contract's line.

export interface PushService {
  /** The service's VAPID public key (base64url), checked against the contract's key rule. */
  key(signal: AbortSignal): Promise<string>
  /** Registers (or updates, by endpoint) a browser's subscription for the token's subject. */
  register(body: PushSubscriptionCreate, signal: AbortSignal): Promise<PushSubscriptionRecord>
  remove(id: string): Promise<void>
  /** The token's subject's subscriptions in this app (at most PUSH.subscriptionsPerSubject: one page). */
  list(signal?: AbortSignal): Promise<PushSubscriptionRecord[]>
}

const service = 'realtime'

/** The key answer: the contract's line, then its key rule (a point the browser could not use is refused here). */
const keyShape = (answer: unknown): string | undefined =>
  wrongField(answer, PUSH_PUBLIC_KEY_FIELDS) ??
  (PUSH_PUBLIC_KEY.test((answer as { publicKey: string }).publicKey) ? undefined : '$.publicKey')

export function createPushService(http: Http): PushService {
  return {
    async key(signal) {
      const answer = await http<{ publicKey: string }>({
        service,
        method: 'GET',
        path: '/v1/push/key',
        shape: keyShape,
        signal,
      })
      return answer.publicKey
    },
    register(body, signal) {
      return http<PushSubscriptionRecord>({
        service,
        method: 'POST',
        path: '/v1/push/subscriptions',
        body,
        shape: PUSH_SUBSCRIPTION_FIELDS,
        signal,
      })
    },
    remove(id) {
      return http({ service, method: 'DELETE', path: `/v1/push/subscriptions/${validateId(id)}` })
    },
    async list(signal) {
      const page = await http<PushSubscriptionPage>({
        service,
        method: 'GET',
        path: '/v1/push/subscriptions',
        shape: PUSH_SUBSCRIPTION_PAGE_FIELDS,
        signal,
      })
      return page.data
    },
  }
}
