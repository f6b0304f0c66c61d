// Presence: members per channel, their broadcasts, and the grace a dead socket's members get for a resume.
import type { Channel } from './channel-state.js'
import type { Connection } from './connection.js'
import type { Member, RealtimeEvent } from './types.js'

export interface PresenceEnv {
  channel(app: string, name: string): Channel | undefined
  emit(event: RealtimeEvent): void
  graceMs(): number
  /** A member left `channel`: the hub forgets it if nothing else is on it. */
  dropIfIdle(channel: Channel): void
}

interface Held {
  app: string
  subject: string
  channels: Set<string>
  timer: NodeJS.Timeout
}

export type PresenceAction = 'enter' | 'update' | 'leave'

export class Presence {
  /** Sessions of dead sockets, by connectionId, until their grace ends or a resume takes them. */
  private held = new Map<string, Held>()

  constructor(private readonly env: PresenceEnv) {}

  /** Enter, or update when already a member (and enter when an update comes first). */
  set(conn: Connection, channel: Channel, data: unknown, subject: string): void {
    const action: PresenceAction = channel.members.has(conn.id) ? 'update' : 'enter'
    const member: Member = { clientId: subject, connectionId: conn.id, data: data ?? null }
    channel.members.set(conn.id, member)
    conn.presence.add(channel.name)
    this.announce(channel, action, member)
  }

  /**
   * A member the service holds itself, with no socket (support's typing customers): enters or
   * updates it with `data`, or makes it leave with null. Its connectionId is `service:<clientId>`.
   */
  service(channel: Channel, clientId: string, data: unknown): void {
    const connectionId = `service:${clientId}`
    if (data === null) return this.leave(connectionId, channel)
    const action: PresenceAction = channel.members.has(connectionId) ? 'update' : 'enter'
    const member: Member = { clientId, connectionId, data }
    channel.members.set(connectionId, member)
    this.announce(channel, action, member)
  }

  leave(connectionId: string, channel: Channel): void {
    const member = channel.members.get(connectionId)
    if (!member) return
    channel.members.delete(connectionId)
    this.announce(channel, 'leave', member)
    this.env.dropIfIdle(channel)
  }

  /** The socket died: its members stay for the grace period, unless a resume takes them over. */
  hold(conn: Connection): void {
    const identity = conn.identity
    if (!identity) return
    const channels = new Set(conn.presence)
    const timer = setTimeout(() => this.release(conn.id), this.env.graceMs())
    this.held.set(conn.id, { app: identity.app, subject: identity.subject, channels, timer })
  }

  /** A resume by the same app and subject: the members become the new connection's, silently. */
  takeOver(connectionId: string, app: string, subject: string): Set<string> | undefined {
    const held = this.held.get(connectionId)
    if (!held || held.app !== app || held.subject !== subject) return undefined
    clearTimeout(held.timer)
    this.held.delete(connectionId)
    return held.channels
  }

  /** Members taken over by a resume but whose channel was not resubscribed in time leave then. */
  confirmLater(conn: Connection): void {
    setTimeout(() => {
      if (conn.state !== 'open' || !conn.identity) return
      for (const name of [...conn.presence]) {
        if (conn.subscriptions.has(name)) continue
        conn.presence.delete(name)
        const channel = this.env.channel(conn.identity.app, name)
        if (channel) this.leave(conn.id, channel)
      }
    }, this.env.graceMs()).unref()
  }

  isHeld(connectionId: string): boolean {
    return this.held.has(connectionId)
  }

  /** Ends every grace period without broadcasting (close and reset). */
  clear(): void {
    for (const held of this.held.values()) clearTimeout(held.timer)
    this.held.clear()
  }

  private release(connectionId: string): void {
    const held = this.held.get(connectionId)
    if (!held) return
    this.held.delete(connectionId)
    for (const name of held.channels) {
      const channel = this.env.channel(held.app, name)
      if (channel) this.leave(connectionId, channel)
    }
  }

  private announce(channel: Channel, action: PresenceAction, member: Member): void {
    channel.broadcast({ type: 'presence.event', channel: channel.name, action, member, ts: Date.now() })
    this.env.emit({ type: 'presence', app: channel.app, channel: channel.name, action, member })
  }
}
