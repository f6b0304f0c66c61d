// Support service: mailboxes, agents, conversations with threads, docs (issue 3), and the customer
// side (issue 29): /v1/me routes, customer channels, the typing relay. REST reference: docs/services/support.md.
import type { ModuleContext, ServiceModule } from '../service-module.js'
import { catalogRoutes } from './catalog-routes.js'
import { conversationRoutes } from './conversation-routes.js'
import { ConversationStore } from './conversation-store.js'
import { createCustomerFeed } from './customer-feed.js'
import { customerRoutes } from './customer-routes.js'
import { CustomerReads } from './customer-view.js'
import { createTypingRelay } from './typing-relay.js'

/** Nothing to tune yet: the data comes from the emulator's `seed`. */
export function createSupportModule(ctx: ModuleContext): ServiceModule {
  const store = new ConversationStore(ctx.seed)
  const reads = new CustomerReads()
  const feed = createCustomerFeed(store, reads, ctx.realtime)
  const relay = createTypingRelay(feed)
  const stopRelay = ctx.realtime?.on((event) => relay.listener(event))
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
    },
    close: () => stopRelay?.(),
  }
}
