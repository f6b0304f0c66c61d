// Support service: mailboxes, agents, conversations with threads, docs (issue 3), and the customer
// side (issue 29): /v1/me routes, customer channels, the typing relay; files (issue 48: uploads/).
// REST reference: docs/services/support.md.
import type { ModuleContext, ServiceModule } from '../service-module.js'
import { createUploads, type UploadControls } from '../uploads/module.js'
import { catalogRoutes } from './catalog-routes.js'
import { conversationRoutes } from './conversation-routes.js'
import { ConversationStore } from './conversation-store.js'
import { createCustomerFeed } from './customer-feed.js'
import { customerRoutes } from './customer-routes.js'
import { createCustomerTyping } from './customer-typing.js'
import { CustomerReads } from './customer-view.js'
import { createPresencePolicy, PRESENCE_CHANNEL } from './presence-policy.js'
import { createTypingRelay } from './typing-relay.js'
import { createTypingThrottle } from './typing-throttle.js'

export interface SupportOptions {
  /**
   * How long a customer's `typing: true` shows to agents unless said again.
   * @default CUSTOMER_TYPING_TTL_MS (5000)
   */
  customerTypingTtlMs?: number
}

export interface SupportModule extends ServiceModule {
  /** Uploads, for tests (`emulator.uploads`). */
  uploads: UploadControls
}

export function createSupportModule(ctx: ModuleContext, options: SupportOptions = {}): SupportModule {
  const store = new ConversationStore(ctx.seed)
  const reads = new CustomerReads()
  const uploads = createUploads(ctx.publicUrl)
  const feed = createCustomerFeed(store, reads, ctx.realtime, ctx.push, uploads.registry)
  // Resource presence: verified names and stamped locks (the hub runs the policy on each write).
  const policy = createPresencePolicy(() => store.data.agents)
  const throttle = createTypingThrottle((app, data) => feed.typing(app, data))
  const relay = createTypingRelay(
    (app, connectionId) => policy.nameOf(app, connectionId),
    (app, data) => throttle.say(app, data),
  )
  const customerTyping = createCustomerTyping(
    (app, clientId, data) => ctx.realtime?.servicePresence(app, PRESENCE_CHANNEL, clientId, data),
    { ...(options.customerTypingTtlMs !== undefined ? { ttlMs: options.customerTypingTtlMs } : {}) },
  )
  const stops = ctx.realtime
    ? [
        ctx.realtime.memberPolicy(PRESENCE_CHANNEL, policy),
        ctx.realtime.on((event) => {
          relay.listener(event)
          if (event.type === 'presence' && event.channel === PRESENCE_CHANNEL && event.action === 'leave')
            policy.left(event.app, event.member.connectionId)
        }),
      ]
    : []
  return {
    routes: [
      ...catalogRoutes(store),
      ...conversationRoutes(store, ctx.webhooks, feed, uploads.registry),
      ...customerRoutes(store, reads, feed, ctx.webhooks, uploads.registry, customerTyping),
      ...uploads.routes,
    ],
    uploads: uploads.controls,
    reset: () => {
      store.reset()
      reads.reset()
      relay.reset()
      throttle.reset()
      customerTyping.reset()
      policy.reset()
      uploads.clear()
    },
    close: () => {
      for (const stop of stops) stop()
      throttle.reset()
      customerTyping.reset()
      uploads.close()
    },
  }
}
