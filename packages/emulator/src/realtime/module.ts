// Realtime service: the WebSocket hub and its REST face (issues 3 and 4).
import type { ModuleContext, ServiceModule } from '../service-module.js'

export interface RealtimeOptions {}

/** Test controls of the hub (drop sockets, pause heartbeats, restart with a new epoch, …). */
export interface RealtimeControls {}

export interface RealtimeModule extends ServiceModule {
  controls: RealtimeControls
}

export function createRealtimeModule(_ctx: ModuleContext, _options: RealtimeOptions = {}): RealtimeModule {
  return { routes: [], reset() {}, controls: {} }
}
