// One channel of one app: epoch, offsets, bounded history, publish dedupe, subscribers, members.
import { newId, type Since } from './frames.js'
import type { Member, StoredMessage } from './types.js'

export interface Ack {
  offset: number
  epoch: string
  messageId: string
  duplicate: boolean
}

export interface ChannelLimits {
  historySize: number
  historyTtlMs: number
  /** How long a publish's idempotency key is remembered. */
  dedupeMs: number
  maxDedupeKeys: number
}

/** Whatever can receive a push (a connection); kept abstract so channels never import sockets. */
export interface Peer {
  readonly id: string
  push(frame: Record<string, unknown>): void
}

export interface Slice {
  messages: StoredMessage[]
  complete: boolean
}

export class Channel {
  epoch = newId('ep')
  /** The latest offset in this epoch (0: nothing published yet). */
  offset = 0
  readonly subscribers = new Set<Peer>()
  /** Keyed by connectionId: one member per connection. */
  readonly members = new Map<string, Member>()
  /** When the newest message of this epoch was stored (undefined: none yet). */
  private lastAt: number | undefined
  /** Oldest first; offsets are contiguous because we only ever drop from the front. */
  private history: StoredMessage[] = []
  private dedupe = new Map<string, { ack: Omit<Ack, 'duplicate'>; at: number }>()

  constructor(
    readonly app: string,
    readonly name: string,
    private readonly limits: ChannelLimits,
  ) {}

  /** Stores a message (or finds the earlier one with the same key). */
  append(
    event: string,
    data: unknown,
    clientId: string,
    key: string | undefined,
    now = Date.now(),
  ): { ack: Ack; message?: StoredMessage } {
    this.prune(now)
    const seen = key === undefined ? undefined : this.dedupe.get(key)
    if (seen) return { ack: { ...seen.ack, duplicate: true } }
    const message: StoredMessage = {
      channel: this.name,
      event,
      data,
      offset: ++this.offset,
      epoch: this.epoch,
      messageId: newId('msg', 10),
      clientId,
      ts: now,
    }
    this.history.push(message)
    this.lastAt = now
    if (this.history.length > this.limits.historySize)
      this.history.splice(0, this.history.length - this.limits.historySize)
    const ack = { offset: message.offset, epoch: message.epoch, messageId: message.messageId }
    if (key !== undefined) {
      this.dedupe.set(key, { ack, at: now })
      if (this.dedupe.size > this.limits.maxDedupeKeys) this.dedupe.delete(this.dedupe.keys().next().value as string)
    }
    return { ack: { ...ack, duplicate: false }, message }
  }

  /**
   * Retained messages after `since` (at most `limit`, oldest first), or the newest `limit`
   * without it. `complete` is false when the epoch differs or history no longer reaches back.
   */
  read(since: Since | undefined, limit: number, now = Date.now()): Slice {
    this.prune(now)
    if (!since) return { messages: this.history.slice(-limit), complete: true }
    if (since.epoch !== this.epoch || since.offset > this.offset) return { messages: [], complete: false }
    const first = this.history[0]?.offset ?? this.offset + 1
    const start = Math.max(0, since.offset + 1 - first)
    return { messages: this.history.slice(start, start + limit), complete: first <= since.offset + 1 }
  }

  /** A channel forgotten while idle, used again: on in its epoch from its offset, its history gone (channel-table.ts). */
  goOn(epoch: string, offset: number): void {
    this.epoch = epoch
    this.offset = offset
  }

  /** A new epoch: the history, its offsets and the dedupe keys are gone (a service that lost its state). */
  restart(): void {
    this.epoch = newId('ep')
    this.offset = 0
    this.history = []
    this.lastAt = undefined
    this.dedupe.clear()
  }

  trim(keepLast: number): void {
    this.history = keepLast > 0 ? this.history.slice(-keepLast) : []
  }

  get retained(): number {
    return this.history.length
  }

  /**
   * Whether the hub can forget the channel: nobody subscribed, no member (one held for a resume
   * is still a member), and nothing stored anyone could ask about (no message within the dedupe
   * window, which is at least the history's). Forgotten, it keeps only its position (channel-table.ts).
   */
  idle(now = Date.now()): boolean {
    return (
      this.subscribers.size === 0 &&
      this.members.size === 0 &&
      (this.lastAt === undefined || now - this.lastAt >= this.limits.dedupeMs)
    )
  }

  broadcast(frame: Record<string, unknown>): void {
    for (const peer of this.subscribers) peer.push(frame)
  }

  private prune(now: number): void {
    const oldest = now - this.limits.historyTtlMs
    let drop = 0
    while (drop < this.history.length && (this.history[drop]?.ts ?? now) < oldest) drop++
    if (drop > 0) this.history.splice(0, drop)
    const forget = now - this.limits.dedupeMs
    for (const [key, entry] of this.dedupe) {
      if (entry.at >= forget) break // insertion order is time order
      this.dedupe.delete(key)
    }
  }
}
