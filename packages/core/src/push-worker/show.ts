// The `push` event: a payload checked against the contract, then one notification per message,
// the newest of a conversation in place of the older (its tag).
import { DEV } from '@tandem/contract/dev'
import { isObject, isPushPayload, type PushPayload } from '@tandem/contract'
import type { HandlePushOptions, PushWorkerScope, Say, ShownNotification, WorkerEvent } from './types.js'

export interface PushEventLike extends WorkerEvent {
  readonly data: { json(): unknown } | null
}

/** Message ids this worker showed, the latest first out: a dismissed one pushed again stays dismissed. */
const SEEN_MAX = 200

/** The Tandem payload a notification carries (`data.tandem`), or null for another's notification. */
export const payloadOf = (n: ShownNotification): PushPayload | null => {
  const tandem = isObject(n.data) ? n.data.tandem : null
  return isPushPayload(tandem) ? tandem : null
}

export function onPush(scope: PushWorkerScope, options: HandlePushOptions, say: Say) {
  const seen = new Set<string>()
  return (event: PushEventLike) => {
    let value: unknown
    try {
      value = event.data ? event.data.json() : undefined
    } catch {
      return say(
        'push_not_json',
        DEV && process.env.NODE_ENV !== 'production' && 'a push that is not JSON: nothing shown',
      )
    }
    if (!isPushPayload(value))
      return say(
        'push_wrong_shape',
        DEV && process.env.NODE_ENV !== 'production' && 'a push without a PushPayload of the contract: nothing shown',
      )
    if (seen.has(value.messageId)) return
    seen.add(value.messageId)
    if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value!)
    event.waitUntil(show(scope, value, options).catch(() => say('push_show_failed')))
  }
}

async function show(scope: PushWorkerScope, payload: PushPayload, { strings, render }: HandlePushOptions) {
  const sentAt = Date.parse(payload.sentAt)
  for (const n of await scope.registration.getNotifications()) {
    const shown = payloadOf(n)
    // The same message, or a newer one of its conversation already up (push services may reorder).
    if (
      shown &&
      (shown.messageId === payload.messageId ||
        (shown.conversationId === payload.conversationId && Date.parse(shown.sentAt) > sentAt))
    )
      return
  }
  const { title = strings?.title?.(payload) ?? payload.title, ...extra } = render?.(payload) ?? {}
  await scope.registration.showNotification(title, {
    body: strings?.body?.(payload) ?? payload.body,
    ...extra,
    tag: payload.conversationId,
    renotify: true,
    data: { tandem: payload },
  })
}
