// The seam between the emulator's shared pipeline (auth, rate limits, idempotency, faults,
// access log) and each service's own routes and state. A module owns one directory.
import type { Server } from 'node:http'
import type { Conversation, Thread } from '@tandem/contract'
import type { RouteHandler } from './resource-routes.js'
import type { MemberPolicy } from './realtime/member-policy.js'
import type { RealtimeEvent } from './realtime/types.js'
import type { Route } from './router.js'
import type { EmulatorApp } from './shared-types.js'
import type { WebhookModule } from './webhooks/module.js'

export interface ServiceModule {
  /** Routes relative to the service prefix, e.g. `{ method: 'POST', pattern: '/v1/routes:compute' }`. */
  routes: Route<RouteHandler>[]
  /** Back to the seeded state (emulator.reset()). */
  reset(): void
  /** Called once with the HTTP server (the realtime hub takes its 'upgrade' events). */
  attach?(server: Server): void
  /** Called by close(): end sockets and timers. */
  close?(): void
}

/** What a module gets when the emulator is created. */
export interface ModuleContext {
  seed: number
  /** Sends signed webhooks to the URLs registered for an app. */
  webhooks: WebhookModule
  /**
   * The configured apps by id (the realtime hub verifies socket tokens with their keys).
   * Optional so a module can be built alone in a test; without it every socket token is refused.
   */
  apps?: ReadonlyMap<string, EmulatorApp>
  /**
   * The realtime service, for a module that publishes as the service (support's customer
   * channels) or follows presence (the typing relay). Optional: a module built alone has none.
   */
  realtime?: ServiceChannels
  /** The emulator's own origin (download links in frames and webhooks). Optional: a module built alone has none. */
  publicUrl?: () => string
  /** Web Push, told of each new message (support's). Optional: a module built alone has none. */
  push?: PushNotifier
}

/** What support tells Web Push (push/module.ts): each new message; a note is ignored. */
export interface PushNotifier {
  message(app: string, conversation: Conversation, thread: Thread): void
}

/** What a module may do on the realtime service, without depending on its code. */
export interface ServiceChannels {
  /** Publishes as the service (clientId `server`); never throws. */
  publish(app: string, channel: string, event: string, data: unknown): void
  /** Every hub event (presence among them); returns the function that stops listening. */
  on(listener: (event: RealtimeEvent) => void): () => void
  /**
   * What the hub does with member data on `channel`, a channel of this module's (resource
   * presence): stamps what the service vouches for. Returns the function that removes it.
   */
  memberPolicy(channel: string, policy: MemberPolicy): () => void
  /** Whether `subject` has a socket of `app` open now (handshaken): push waits until none is. */
  hasOpenConnection(app: string, subject: string): boolean
  /**
   * A presence member the service holds itself on `channel` (support's typing customers): enters
   * or updates it with `data` (the channel's member schema), or makes it leave with null.
   */
  servicePresence(app: string, channel: string, clientId: string, data: unknown): void
}
