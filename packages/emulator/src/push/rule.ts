// The rule (docs/push.md): a message is pushed to a subject only when it had no open realtime
// connection of the app from the message until `graceMs` after it. Open at the message: nothing
// (`skipped-open`). Closed: the deliveries wait (`pending`); a connection opening meanwhile (a
// reload, a tab reopened) cancels them; at the end of the grace they are sent.
import type { PushPayload } from '@tandem/contract'
import type { DeliveryLog } from '../delivery-log.js'
import type { PushSender } from './sender.js'
import type { StoredSubscription, SubscriptionStore } from './subscriptions.js'
import type { PushDelivery, PushDeliveryStatus } from './types.js'

export interface RuleEnv {
  graceMs: number
  store: SubscriptionStore
  sender: PushSender
  log: DeliveryLog<PushDelivery>
  hasOpenConnection(app: string, subject: string): boolean
  newId(): string
}

/** One message for one subject's subscriptions. */
export interface Notice {
  app: string
  subject: string
  items: { subscription: StoredSubscription; payload: PushPayload }[]
}

export interface PushRule {
  notify(notice: Notice): void
  /** A connection of `subject` opened in `app`: what waits for it is cancelled. */
  opened(app: string, subject: string): void
  /** Drops every pending delivery and stops the sender (reset, close); nothing more is recorded or POSTed. */
  clear(): void
}

interface Pending {
  timer: NodeJS.Timeout
  deliveries: PushDelivery[]
}

export function createPushRule(env: RuleEnv): PushRule {
  /** By `app \0 subject`. */
  const pending = new Map<string, Set<Pending>>()
  /** Bumped by clear(): a send that was in flight then records nothing. */
  let generation = 0

  const set = (delivery: PushDelivery, status: PushDeliveryStatus, extra: Partial<PushDelivery> = {}) => {
    Object.assign(delivery, { status, ...extra, at: new Date().toISOString() })
    env.log.record(delivery)
  }

  const send = (delivery: PushDelivery, payload: PushPayload) => {
    const subscription = env.store.byId(delivery.subscriptionId)
    if (!subscription) return set(delivery, 'cancelled', { error: 'the subscription was removed' })
    const at = generation
    // Where it goes as of now: a renew moving the subscription meanwhile changes neither this push
    // nor, when the old endpoint answers 410 late, the renewed subscription (removed only if still there).
    const endpoint = subscription.endpoint
    // Fire and forget: whatever the push service does, nobody waits for it here.
    void env.sender.send({ endpoint, keys: subscription.keys }, payload).then((result) => {
      if (at !== generation) return
      if (result.status === 'gone') env.store.removeAt(subscription.id, endpoint)
      const { status, ...rest } = result
      set(delivery, status, { ...rest, endpoint })
    })
  }

  return {
    notify({ app, subject, items }) {
      if (items.length === 0) return
      const open = env.hasOpenConnection(app, subject)
      const deliveries = items.map(({ subscription, payload }): PushDelivery => ({
        id: env.newId(),
        app,
        subscriptionId: subscription.id,
        subject,
        kind: subscription.kind,
        endpoint: subscription.endpoint,
        messageId: payload.messageId,
        conversationId: payload.conversationId,
        payload,
        status: open ? 'skipped-open' : 'pending',
        at: new Date().toISOString(),
      }))
      for (const d of deliveries) env.log.record(d)
      if (open) return
      const key = keyOf(app, subject)
      const entry: Pending = {
        deliveries,
        timer: setTimeout(() => {
          pending.get(key)?.delete(entry)
          if (pending.get(key)?.size === 0) pending.delete(key)
          // The open events say it first; this is the rule's own word, should one be missed.
          if (env.hasOpenConnection(app, subject)) for (const d of deliveries) set(d, 'cancelled')
          else deliveries.forEach((d, i) => send(d, items[i]!.payload))
        }, env.graceMs),
      }
      // An emulator left running with nothing else to do may exit: a pending push does not hold it.
      entry.timer.unref()
      const list = pending.get(key) ?? new Set<Pending>()
      list.add(entry)
      pending.set(key, list)
    },
    opened(app, subject) {
      const key = keyOf(app, subject)
      const list = pending.get(key)
      if (!list) return
      pending.delete(key)
      for (const entry of list) {
        clearTimeout(entry.timer)
        for (const d of entry.deliveries) set(d, 'cancelled')
      }
    },
    clear() {
      generation++
      env.sender.reset()
      for (const list of pending.values()) for (const entry of list) clearTimeout(entry.timer)
      pending.clear()
    },
  }
}

const keyOf = (app: string, subject: string) => `${app}\u0000${subject}`
