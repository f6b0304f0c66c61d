// Support service: mailboxes, agents, conversations with threads, docs (issue 3).
// REST reference: docs/services/support.md.
import type { ModuleContext, ServiceModule } from '../service-module.js'
import { catalogRoutes } from './catalog-routes.js'
import { conversationRoutes } from './conversation-routes.js'
import { ConversationStore } from './conversation-store.js'

/** Nothing to tune yet: the data comes from the emulator's `seed`. */
export function createSupportModule(ctx: ModuleContext): ServiceModule {
  const store = new ConversationStore(ctx.seed)
  return {
    routes: [...catalogRoutes(store), ...conversationRoutes(store, ctx.webhooks)],
    reset: () => store.reset(),
  }
}
