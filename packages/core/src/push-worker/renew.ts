// `pushsubscriptionchange`: the browser replaced the subscription (or dropped it), maybe with no tab
// open. The new one is registered with the service by the tokenless renew operation, proven by the
// old one's auth secret; then the open tabs are told, and they register it again with their token.
import { PUSH_RENEWED } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import type { PushWorkerScope, Say, WorkerEvent, WorkerPushSubscription } from './types.js'

export interface SubscriptionChangeEventLike extends WorkerEvent {
  readonly oldSubscription?: WorkerPushSubscription | null
  readonly newSubscription?: WorkerPushSubscription | null
}

/** What a tab hears when the worker renewed (or tried to): `@tandem/core/push` re-registers on it. */
export { PUSH_RENEWED }

export function onSubscriptionChange(scope: PushWorkerScope, baseUrl: string, say: Say) {
  return (event: SubscriptionChangeEventLike) => {
    event.waitUntil(
      renew(scope, baseUrl, event)
        // Once, never again: the tabs below and the page's next start register it with a token.
        .catch(() =>
          say('push_renew_failed', DEV && process.env.NODE_ENV !== 'production' && 'the subscription was not renewed'),
        )
        .then(() => scope.clients.matchAll({ type: 'window', includeUncontrolled: true }))
        .then((tabs) => tabs.forEach((tab) => tab.postMessage({ type: PUSH_RENEWED }))),
    )
  }
}

async function renew(scope: PushWorkerScope, baseUrl: string, event: SubscriptionChangeEventLike) {
  const old = event.oldSubscription
  const auth = old?.toJSON().keys?.auth
  // Without the old subscription nothing proves who this was: a tab registers the new one.
  if (!old || !auth) throw new Error('no old subscription')
  const next = event.newSubscription ?? (await scope.registration.pushManager.subscribe(old.options))
  const { endpoint, keys, expirationTime = null } = next.toJSON()
  const response = await fetch(`${baseUrl}/realtime/v1/push/subscriptions/renew`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      oldEndpoint: old.endpoint,
      auth,
      subscription: { endpoint, keys: { p256dh: keys?.p256dh, auth: keys?.auth }, expirationTime },
    }),
  })
  if (!response.ok) throw new Error(`renew: ${response.status}`)
}
