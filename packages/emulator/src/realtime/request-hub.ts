// What the request handlers and the handshake need from the hub: an interface of its own, so they
// depend on it and not on hub.ts (which imports them; a cycle otherwise, type-only or not).
import type { Ack, Channel } from './channel-state.js'
import type { Connection } from './connection.js'
import type { MemberPolicy } from './member-policy.js'
import type { ResolvedOptions } from './options.js'
import type { Presence } from './presence.js'
import type { TokenGate } from './token-auth.js'
import type { RealtimeEvent, RealtimeStats } from './types.js'

export interface RequestHub {
  readonly stats: RealtimeStats
  readonly presence: Presence
  readonly gate: TokenGate
  readonly options: ResolvedOptions
  /** Handshaken connections by id. */
  readonly open: Map<string, Connection>
  /** By channel name: what the service owning a channel does with its member data. */
  readonly policies: ReadonlyMap<string, MemberPolicy>
  emit(event: RealtimeEvent): void
  close(conn: Connection, code: number, retryAfterMs?: number): void
  terminate(conn: Connection): void
  channel(app: string, name: string): Channel | undefined
  ensureChannel(app: string, name: string): Channel
  /** Forgets `channel` if nobody is on it and it holds nothing anyone could ask about. */
  dropIfIdle(channel: Channel): void
  subscribe(conn: Connection, channel: Channel): void
  unsubscribe(conn: Connection, channel: Channel): void
  publish(
    app: string,
    name: string,
    event: string,
    data: unknown,
    clientId: string,
    key: string | undefined,
    onAck?: (ack: Ack) => void,
  ): Ack
}
