// Web Push (docs/push.md): subscriptions per app and subject, the rule (push only when no tab of
// the subject is open, after a grace), and a faithful sender (`web-push`). Support tells it of
// each new message; the realtime hub, of each connection that opens.
import { customerChannelName, PUSH, type PushKind, type Thread } from '@tandem/contract'
import type { PushNotifier, ServiceChannels, ServiceModule } from '../service-module.js'
import { createDeliveryLog } from '../delivery-log.js'
import { buildPayload } from './payload.js'
import { createPushRule } from './rule.js'
import { pushRoutes } from './routes.js'
import { createPushSender } from './sender.js'
import { SubscriptionStore, type StoredSubscription } from './subscriptions.js'
import type { PushControls, PushDelivery, PushOptions } from './types.js'

export type { PushControls, PushDelivery, PushDeliveryStatus, PushOptions } from './types.js'

export interface PushModule extends ServiceModule, PushNotifier {
  controls: PushControls
}

/** The channel agents hear conversations on (`support:conversations`, a live collection). */
const AGENTS_CHANNEL = 'support:conversations'
const LOG_SIZE = 1000
const DEFAULT_TIMEOUT_MS = 10_000
/** A timer's delay stays below 2^31 ms: past it Node fires at once. */
const TIMER_LIMIT = 2 ** 31

export function createPushModule(
  options: PushOptions = {},
  ctx: { seed: number; realtime: ServiceChannels },
): PushModule {
  const graceMs = options.graceMs ?? PUSH.graceMs
  if (!(Number.isFinite(graceMs) && graceMs >= 0 && graceMs < TIMER_LIMIT))
    throw new RangeError('push.graceMs must be a number from 0 to below 2^31')
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs < TIMER_LIMIT))
    throw new RangeError('push.timeoutMs must be a positive number below 2^31')

  const store = new SubscriptionStore(ctx.seed)
  const sender = createPushSender({ agent: options.agent, timeoutMs })
  // One entry per delivery, updated in place as its status moves on; copies, so a test cannot
  // change what the emulator logged.
  const log = createDeliveryLog<PushDelivery>({
    size: LOG_SIZE,
    name: 'push',
    key: (d) => d.id,
    copy: (d) => ({ ...d }),
    summary: countByStatus,
  })
  let deliveries = 0
  const rule = createPushRule({
    graceMs,
    store,
    sender,
    log,
    hasOpenConnection: (app, subject) => ctx.realtime.hasOpenConnection(app, subject),
    newId: () => `pdl_${(++deliveries).toString(36).padStart(6, '0')}`,
  })
  const stop = ctx.realtime.on((event) => {
    if (event.type === 'open') rule.opened(event.app, event.subject)
  })

  /** One notice per subject: the rule looks at each subject's connections. */
  const notify = (app: string, kind: PushKind, subscriptions: StoredSubscription[], thread: Thread, title: string) => {
    const bySubject = new Map<string, StoredSubscription[]>()
    for (const s of subscriptions) bySubject.set(s.subject, [...(bySubject.get(s.subject) ?? []), s])
    for (const [subject, list] of bySubject) {
      const channel = kind === 'customer' ? customerChannelName(subject) : AGENTS_CHANNEL
      const items = list.map((subscription) => ({
        subscription,
        payload: buildPayload({ channel, thread, title, url: subscription.url }),
      }))
      rule.notify({ app, subject, items })
    }
  }

  return {
    routes: pushRoutes(store, () => sender.publicKey),
    controls: {
      publicKey: sender.publicKey,
      deliveries: () => log.list(),
      waitFor: (predicate, { timeoutMs: wait = 5000 } = {}) => log.waitFor(predicate, wait),
      on: (listener) => log.on(listener),
    },
    message(app, conversation, thread) {
      try {
        if (thread.type === 'reply') {
          // An agent's reply: the conversation's customer, on its own subscriptions.
          const customerId = conversation.customer.id
          if (customerId === null) return
          const title = thread.author.name ?? 'Support'
          notify(
            app,
            'customer',
            store.list(app, customerId).filter((s) => s.kind === 'customer'),
            thread,
            title,
          )
        } else if (thread.type === 'customer') {
          // A customer's message: every agent whose mailboxes include the conversation's.
          const agents = store
            .ofKind(app, 'agent')
            .filter((s) => s.mailboxIds === null || s.mailboxIds.includes(conversation.mailboxId))
          const c = conversation.customer
          const title = thread.author.name ?? thread.author.email ?? c.name ?? c.email ?? 'A customer'
          notify(app, 'agent', agents, thread, title)
        }
      } catch (err) {
        // A write the service applied must not fail because its push could not be prepared.
        console.error('[tandem-emulator] could not prepare a push:', err)
      }
    },
    reset() {
      rule.clear()
      store.reset()
      log.clear()
      deliveries = 0
    },
    close() {
      rule.clear()
      stop()
    },
  }
}

/** What a timed-out wait most needs to see: how many deliveries reached each status. */
function countByStatus(entries: readonly PushDelivery[]): string {
  const counts = new Map<string, number>()
  for (const d of entries) counts.set(d.status, (counts.get(d.status) ?? 0) + 1)
  return counts.size ? `deliveries: ${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')}` : 'no deliveries'
}
