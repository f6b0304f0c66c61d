// Realtime service: the WebSocket hub (docs/protocol.md) and its REST face, over one shared state.
import type { ModuleContext, ServiceModule } from '../service-module.js'
import { createControls } from './controls.js'
import { Hub } from './hub.js'
import type { MemberPolicy } from './member-policy.js'
import { resolveOptions } from './options.js'
import { realtimeRoutes } from './rest-routes.js'
import type { RealtimeControls, RealtimeOptions } from './types.js'

export type {
  DropOptions,
  Member,
  RealtimeControls,
  RealtimeEvent,
  RealtimeOptions,
  RealtimeStats,
  StoredMessage,
} from './types.js'

export interface RealtimeModule extends ServiceModule {
  controls: RealtimeControls
  /**
   * Server-side publish (other services' change events, docs/protocol.md "Live collections"):
   * stored and fanned out like any publish, from clientId `server`. Never throws: a write the
   * service applied must not fail because its notification could not be sent.
   */
  publish(app: string, channel: string, event: string, data: unknown): void
  /** Sets what the service owning `channel` does with its member data (member-policy.ts); returns the undo. */
  memberPolicy(channel: string, policy: MemberPolicy): () => void
  /** Whether `subject` has a handshaken socket of `app` open now (push's rule: docs/push.md). */
  hasOpenConnection(app: string, subject: string): boolean
  /** A member the service holds on `channel` (no socket): enter or update with `data`, leave with null. */
  servicePresence(app: string, channel: string, clientId: string, data: unknown): void
}

export function createRealtimeModule(ctx: ModuleContext, options: RealtimeOptions = {}): RealtimeModule {
  const hub = new Hub(resolveOptions(options), ctx.apps ?? new Map(), ctx.webhooks)
  return {
    routes: realtimeRoutes(hub),
    reset: () => hub.reset(),
    attach: (server) => hub.attach(server),
    close: () => hub.shutdown(),
    controls: createControls(hub, ctx.apps?.keys().next().value),
    publish(app, channel, event, data) {
      try {
        hub.publish(app, channel, event, data, 'server', undefined)
      } catch (err) {
        console.error(`[tandem-emulator] could not publish ${event} on ${channel}:`, err)
      }
    },
    hasOpenConnection(app, subject) {
      for (const conn of hub.open.values())
        if (conn.state === 'open' && conn.identity?.app === app && conn.identity.subject === subject) return true
      return false
    },
    servicePresence(app, name, clientId, data) {
      const channel = data === null ? hub.channel(app, name) : hub.ensureChannel(app, name)
      if (channel) hub.presence.service(channel, clientId, data)
    },
    memberPolicy(channel, policy) {
      hub.policies.set(channel, policy)
      return () => void (hub.policies.get(channel) === policy && hub.policies.delete(channel))
    },
  }
}
