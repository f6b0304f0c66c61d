// One socket: identity, subscriptions, publish and presence buckets, timers, ordered (optionally delayed) output.
import type { WebSocket } from 'ws'
import type { Peer } from './channel-state.js'
import { CLOSE, closeName } from '@tandem/contract'
import { DEFAULTS } from './defaults.js'
import { closeReason, newId } from './frames.js'
import type { ResolvedOptions } from './options.js'
import { RateBucket } from './rate-bucket.js'
import type { Identity } from './token-auth.js'
import type { RealtimeEvent, RealtimeStats } from './types.js'

/** What a connection needs from its hub. */
export interface ConnectionEnv {
  options: ResolvedOptions
  stats: RealtimeStats
  emit(event: RealtimeEvent): void
  heartbeatsPaused(): boolean
  frameDelayMs(): number
  /** Closes with the hub's cleanup (subscriptions, presence grace). */
  close(conn: Connection, code: number, retryAfterMs?: number): void
}

export type ConnectionState = 'handshake' | 'verifying' | 'open' | 'closed'

export class Connection implements Peer {
  /** Replaced at `connected` (by the resumed id when a resume takes over). */
  id = newId('conn')
  state: ConnectionState = 'handshake'
  identity: Identity | undefined
  readonly subscriptions = new Set<string>()
  /** Channels where this connection is a presence member. */
  readonly presence = new Set<string>()
  /** Rate refusals in a row, publish and presence alike (close 4290 past the limit). */
  refusals = 0
  blackholed = false
  readonly bucket: RateBucket
  /** presence.enter/update draw on this one, so presence cannot spend what publishes need (nor the reverse). */
  readonly presenceBucket: RateBucket
  private lastSeen = Date.now()
  private queue: { due: number; text: string }[] = []
  private flushTimer: NodeJS.Timeout | undefined
  private handshakeTimer: NodeJS.Timeout | undefined
  private heartbeatTimer: NodeJS.Timeout | undefined
  private expiryTimer: NodeJS.Timeout | undefined

  constructor(
    readonly ws: WebSocket,
    private readonly env: ConnectionEnv,
  ) {
    const { publishRate: p, presenceRate: r } = env.options
    this.bucket = new RateBucket(p.limit, p.intervalMs, p.burst)
    this.presenceBucket = new RateBucket(r.limit, r.intervalMs, r.burst)
    this.handshakeTimer = setTimeout(() => env.close(this, CLOSE.handshake_timeout), env.options.handshakeTimeoutMs)
    ws.on('pong', () => this.seen())
  }

  seen(): void {
    this.lastSeen = Date.now()
  }

  /** Sends a reply or push, in order; nothing once closed or blackholed. */
  push(frame: Record<string, unknown>): void {
    if (this.state === 'closed' || this.blackholed) return
    const type = String(frame.type)
    this.env.stats.framesOut[type] = (this.env.stats.framesOut[type] ?? 0) + 1
    const text = JSON.stringify(frame)
    this.env.emit({ type: 'out', connectionId: this.identity ? this.id : undefined, frame })
    const delay = this.env.frameDelayMs()
    if (delay <= 0 && this.queue.length === 0) return this.write(text)
    this.queue.push({ due: Date.now() + delay, text })
    this.scheduleFlush()
  }

  /** `connected` was sent: heartbeats and the token's expiry take over from the handshake timer. */
  opened(identity: Identity): void {
    this.state = 'open'
    clearTimeout(this.handshakeTimer)
    this.setIdentity(identity)
    const { heartbeatMs } = this.env.options
    const deadAfter = Math.max(3 * heartbeatMs, DEFAULTS.minDeadAfterMs)
    this.heartbeatTimer = setInterval(() => {
      if (this.env.heartbeatsPaused() || this.blackholed) return
      // A peer that answers neither pings nor anything else is gone (a half-open link): free it.
      if (Date.now() - this.lastSeen > deadAfter) return void this.terminate()
      this.ws.ping()
      this.push({ type: 'heartbeat', ts: Date.now() })
    }, heartbeatMs)
  }

  /** A new token (connect or auth): its claims, and a close 4100 when it runs out. */
  setIdentity(identity: Identity): void {
    this.identity = identity
    clearTimeout(this.expiryTimer)
    this.expiryTimer = setTimeout(
      () => this.env.close(this, CLOSE.token_expired),
      Math.max(0, identity.refusedFromMs - Date.now()),
    )
  }

  expiresIn(): number {
    return Math.max(0, Math.floor((this.identity?.exp ?? 0) - Date.now() / 1000))
  }

  /** Sends the close frame (queued output is dropped) and stops every timer. The hub cleans up. */
  close(code: number, retryAfterMs?: number): void {
    this.stop()
    if (this.blackholed) return void this.ws.terminate() // a half-open link never delivers a close frame
    try {
      this.ws.close(code, closeReason(closeName(code) ?? 'closed', retryAfterMs))
    } catch {
      this.ws.terminate()
    }
  }

  /** Destroys the TCP socket without a close frame. */
  terminate(): void {
    this.stop()
    this.ws.terminate()
  }

  /** Timers off, output dropped; idempotent. */
  stop(): void {
    this.state = 'closed'
    clearTimeout(this.handshakeTimer)
    clearInterval(this.heartbeatTimer)
    clearTimeout(this.expiryTimer)
    clearTimeout(this.flushTimer)
    this.queue = []
  }

  private write(text: string): void {
    if (this.ws.readyState !== this.ws.OPEN) return
    this.ws.send(text, () => {}) // the callback swallows write errors: the 'close' event cleans up
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return
    const head = this.queue[0]
    if (!head) return
    this.flushTimer = setTimeout(
      () => {
        this.flushTimer = undefined
        const now = Date.now()
        while (this.queue[0] && this.queue[0].due <= now && this.state !== 'closed')
          this.write(this.queue.shift()!.text)
        this.scheduleFlush()
      },
      Math.max(0, head.due - Date.now()),
    )
  }
}
