// The hub's channels, per app: made on first use, forgotten once idle (nobody on them, nothing
// stored within the dedupe window), so a socket that touches many names leaves nothing behind.
// What a forgotten channel leaves is its position, a few bytes (the newest `maxTombstones`): used
// again, it goes on in its epoch from its offset with an empty history, exactly as if it had been
// kept and its history had expired, so no client sees the drop. Past the cap, the oldest positions
// go, and such a channel starts a new epoch (a discontinuity its clients already handle).
import { Channel, type ChannelLimits } from './channel-state.js'

interface Position {
  epoch: string
  offset: number
}

export class ChannelTable {
  private byApp = new Map<string, Map<string, Channel>>()
  /** By app and name, oldest first: where each forgotten channel was. */
  private tombstones = new Map<string, Position>()

  constructor(
    private readonly limits: ChannelLimits,
    private readonly maxTombstones: number,
  ) {}

  get(app: string, name: string): Channel | undefined {
    return this.byApp.get(app)?.get(name)
  }

  ensure(app: string, name: string): Channel {
    let byName = this.byApp.get(app)
    if (!byName) this.byApp.set(app, (byName = new Map<string, Channel>()))
    let channel = byName.get(name)
    if (!channel) {
      byName.set(name, (channel = new Channel(app, name, this.limits)))
      const was = this.tombstones.get(keyOf(app, name))
      if (was) channel.goOn(was.epoch, was.offset)
      this.tombstones.delete(keyOf(app, name))
    }
    return channel
  }

  of(app: string): Channel[] {
    return [...(this.byApp.get(app)?.values() ?? [])]
  }

  /** A channel name across every app (test controls), or all channels. */
  named(name?: string): Channel[] {
    const all = [...this.byApp.values()].flatMap((byName) => [...byName.values()])
    return name === undefined ? all : all.filter((c) => c.name === name)
  }

  /** Forgets `channel` when it is idle (and still the table's); true when it went. */
  release(channel: Channel, now = Date.now()): boolean {
    const byName = this.byApp.get(channel.app)
    if (byName?.get(channel.name) !== channel || !channel.idle(now)) return false
    byName.delete(channel.name)
    if (byName.size === 0) this.byApp.delete(channel.app)
    this.tombstones.set(keyOf(channel.app, channel.name), { epoch: channel.epoch, offset: channel.offset })
    if (this.tombstones.size > this.maxTombstones) this.tombstones.delete(this.tombstones.keys().next().value!)
    return true
  }

  /** Forgets the positions of forgotten channels named `name` (every one without it): used again, they start a new epoch. */
  forget(name?: string): void {
    if (name === undefined) return this.tombstones.clear()
    for (const key of [...this.tombstones.keys()]) if (key.endsWith(`\u0000${name}`)) this.tombstones.delete(key)
  }

  /** Forgets every idle channel (the hub's periodic sweep); returns how many went. */
  sweep(now = Date.now()): number {
    let dropped = 0
    for (const channel of this.named()) if (this.release(channel, now)) dropped++
    return dropped
  }

  clear(): void {
    this.byApp.clear()
    this.tombstones.clear()
  }
}

const keyOf = (app: string, name: string) => `${app}\u0000${name}`
