// Support service: mailboxes, agents, conversations with threads, docs (issue 3), and the customer
// side (issue 29): /v1/me routes, customer channels, the typing relay. REST reference: docs/services/support.md.
import type { ModuleContext, ServiceModule } from '../service-module.js'
import { catalogRoutes } from './catalog-routes.js'
import { conversationRoutes } from './conversation-routes.js'
import { ConversationStore } from './conversation-store.js'
import { createCustomerFeed } from './customer-feed.js'
import { customerRoutes } from './customer-routes.js'
import { CustomerReads } from './customer-view.js'
import { createPresencePolicy, PRESENCE_CHANNEL } from './presence-policy.js'
import { createTypingRelay } from './typing-relay.js'
import { createTypingThrottle } from './typing-throttle.js'

/** Nothing to tune yet: the data comes from the emulator's `seed`. */
export function createSupportModule(ctx: ModuleContext): ServiceModule {
  const store = new ConversationStore(ctx.seed)
  const reads = new CustomerReads()
  const feed = createCustomerFeed(store, reads, ctx.realtime, ctx.push)
  // Resource presence: verified names and stamped locks (the hub runs the policy on each write).
  const policy = createPresencePolicy(() => store.data.agents)
  const throttle = createTypingThrottle((app, data) => feed.typing(app, data))
  const relay = createTypingRelay(
    (app, connectionId) => policy.nameOf(app, connectionId),
    (app, data) => throttle.say(app, data),
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
      ...conversationRoutes(store, ctx.webhooks, feed),
      ...customerRoutes(store, reads, feed, ctx.webhooks),
    ],
    reset: () => {
      store.reset()
      reads.reset()
      relay.reset()
      throttle.reset()
      policy.reset()
    },
    close: () => {
      for (const stop of stops) stop()
      throttle.reset()
    },
  }
}
