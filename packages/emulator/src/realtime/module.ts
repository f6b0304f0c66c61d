// Realtime service: the WebSocket hub (docs/protocol.md) and its REST face, over one shared state.
import type { ModuleContext, ServiceModule } from '../service-module.js'
import { createControls } from './controls.js'
import { Hub } from './hub.js'
import { resolveOptions } from './options.js'
import { realtimeRoutes } from './rest-routes.js'
import type { RealtimeControls, RealtimeOptions } from './types.js'

export type { DropOptions, Member, RealtimeControls, RealtimeEvent, RealtimeOptions, RealtimeStats, StoredMessage } from './types.js'

export interface RealtimeModule extends ServiceModule {
  controls: RealtimeControls
}

export function createRealtimeModule(ctx: ModuleContext, options: RealtimeOptions = {}): RealtimeModule {
  const hub = new Hub(resolveOptions(options), ctx.apps ?? new Map(), ctx.webhooks)
  return {
    routes: realtimeRoutes(hub),
    reset: () => hub.reset(),
    attach: (server) => hub.attach(server),
    close: () => hub.shutdown(),
    controls: createControls(hub),
  }
}
